import type { CSSProperties, SyntheticEvent } from 'react';
import { DIAGNOSTICS_CLASS, commentsHtml, planImage, type ImageInputs, type StyleDeclaration } from '../../shared/image-markup.ts';

export interface ImageComponentProps extends ImageInputs {
  /** Seed §3: called once the browser has decoded the image. */
  onLoadingComplete?: (size: { naturalWidth: number; naturalHeight: number }) => void;
}

/**
 * React keeps a style object's insertion order and writes `fooBar` as `foo-bar`, so
 * camel-casing each CSS name gives back exactly the declaration text of `imageMarkup`.
 */
function styleObject(style: readonly StyleDeclaration[]): CSSProperties {
  const out: Record<string, string> = {};
  for (const { name, value } of style) {
    out[name.startsWith('--') ? name : name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = value;
  }
  return out as CSSProperties;
}

/**
 * The image template as a React component: the same plan as the server's `imageMarkup`,
 * so `renderToStaticMarkup(<ImageComponent {...inputs}/>)` equals `imageMarkup(inputs)`
 * (React adds the preload link of an eager image itself on the server).
 */
export function ImageComponent(props: ImageComponentProps) {
  const { onLoadingComplete, ...inputs } = props;
  const plan = planImage(inputs);
  const img = plan.img;
  const onLoad = onLoadingComplete
    ? (event: SyntheticEvent<HTMLImageElement>) => {
        const target = event.currentTarget;
        onLoadingComplete({ naturalWidth: target.naturalWidth, naturalHeight: target.naturalHeight });
      }
    : undefined;
  const passthrough = Object.fromEntries((img?.passthrough ?? []).map(({ name, value }) => [name, value]));
  return (
    <>
      {plan.comments.length > 0 && (
        <span className={DIAGNOSTICS_CLASS} hidden dangerouslySetInnerHTML={{ __html: commentsHtml(plan.comments) }} />
      )}
      {img && (
        <img
          src={img.src}
          srcSet={img.srcSet ?? undefined}
          sizes={img.sizes ?? undefined}
          width={img.width}
          height={img.height}
          alt={img.alt ?? undefined}
          className={img.className ?? undefined}
          style={styleObject(img.style)}
          decoding={img.decoding}
          loading={img.loading}
          fetchPriority={img.fetchPriority ?? undefined}
          {...passthrough}
          onLoad={onLoad}
        />
      )}
    </>
  );
}
