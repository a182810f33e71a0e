/** Public configuration the server puts into index.html as `<meta name="omnibot-config" content="{...}">`. */
interface AppConfig {
  productName: string;
  companyName: string;
  environment: string;
}

export const DEFAULT_CONFIG: AppConfig = {
  productName: 'Omnibot',
  companyName: 'Omnibot',
  environment: 'PRODUCTION',
};

const text = (value: unknown, fallback: string) =>
  typeof value === 'string' && value.trim() !== '' ? value : fallback;

/** Reads the config meta tag; any missing, empty or unreadable value falls back to the defaults. */
export function readConfig(doc: Document = document): AppConfig {
  const content = doc.querySelector('meta[name="omnibot-config"]')?.getAttribute('content');
  if (!content) return DEFAULT_CONFIG;
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return DEFAULT_CONFIG;
  }
  const values = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  return {
    productName: text(values.productName, DEFAULT_CONFIG.productName),
    companyName: text(values.companyName, DEFAULT_CONFIG.companyName),
    environment: text(values.environment, DEFAULT_CONFIG.environment),
  };
}

export const config: AppConfig = readConfig();
