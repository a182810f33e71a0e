import { config } from '../../lib/config';
import classes from './app-layout.module.css';

export function AppFooter() {
  return (
    <footer className={classes.footer}>
      © {new Date().getFullYear()} {config.companyName}. All rights reserved.
    </footer>
  );
}
