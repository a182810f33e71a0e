// Runs before first paint (a blocking script in <head>): applies the remembered display mode so the page
// never flashes the wrong theme. Kept in sync with src/lib/theme.ts (key appMode; until the user chooses, the
// browser's prefers-color-scheme, dark unless it asks for light).
(function () {
  var mode = 'dark';
  var stored = null;
  try {
    stored = window.localStorage.getItem('appMode');
  } catch (error) {
    // Storage can be blocked (privacy settings); the browser's preference applies.
  }
  if (stored === 'light' || stored === 'dark') mode = stored;
  else if (window.matchMedia && window.matchMedia('(prefers-color-scheme: light)').matches) mode = 'light';
  document.documentElement.setAttribute('data-mantine-color-scheme', mode);
})();
