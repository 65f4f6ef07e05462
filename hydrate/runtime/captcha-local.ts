import type { CaptchaProvider } from './captcha.ts';

/**
 * The local captcha provider (A13) served as /assets/captcha-local.js for development and
 * tests: a checkbox that yields `local-ok:{siteKey}:{random}` when checked.
 */
export function createLocalCaptchaProvider(doc: Document = document): CaptchaProvider {
  const widgets = new Map<number, { token: string; input: HTMLInputElement }>();
  let nextId = 1;
  return {
    render(container, options) {
      const id = nextId++;
      const label = doc.createElement('label');
      const input = doc.createElement('input');
      input.type = 'checkbox';
      input.className = 'sf-captcha-local';
      label.append(input, " I'm not a robot");
      const widget = { token: '', input };
      input.addEventListener('change', () => {
        if (input.checked) {
          widget.token = `local-ok:${options.sitekey}:${Math.random().toString(36).slice(2, 12)}`;
          options.callback(widget.token);
        } else {
          widget.token = '';
          options['expired-callback']();
        }
      });
      container.replaceChildren(label);
      widgets.set(id, widget);
      return id;
    },
    reset(widgetId) {
      const widget = widgets.get(widgetId as number);
      if (!widget) return;
      widget.token = '';
      widget.input.checked = false;
    },
    getResponse(widgetId) {
      return widgets.get(widgetId as number)?.token ?? '';
    },
  };
}

export function installLocalCaptcha(win: Window = window): void {
  win.sfCaptchaProvider = createLocalCaptchaProvider(win.document);
}
