// Runs before first paint (a blocking script in <head>): applies the remembered display mode so the page
// never flashes the wrong theme. Kept in sync with src/lib/theme.ts (key appMode, default dark).
(function () {
  var mode = 'dark';
  try {
    if (window.localStorage.getItem('appMode') === 'light') mode = 'light';
  } catch (error) {
    // Storage can be blocked (privacy settings); the default applies.
  }
  document.documentElement.setAttribute('data-mantine-color-scheme', mode);
})();
