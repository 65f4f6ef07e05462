/** Entry of /assets/islands.js. */
import { start } from './boot.ts';

start();
