/** Entry of /assets/captcha-local.js (A13, local provider). */
import { installLocalCaptcha } from './runtime/captcha-local.ts';

installLocalCaptcha();
