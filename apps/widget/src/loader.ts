import { startLoader } from './loader/start';

void startLoader(document.currentScript);
