import { describe, expect, it } from 'vitest';
import { JDouble } from '../../engine/plugin-api.ts';
import { altText, focalPoint, imageMeta, javaTrim, removeTags } from './image.ts';

describe('removeTags', () => {
  it('turns every tag into one space and keeps the rest', () => {
    expect(removeTags('<p>Hello>x</p>')).toBe(' Hello x ');
    expect(removeTags('a<b>c</b>d')).toBe('a c d');
    expect(removeTags('no tags')).toBe('no tags');
  });
  it('drops text after an unclosed <', () => {
    expect(removeTags('keep <drop this')).toBe('keep ');
  });
  it('writes a stray > as a space', () => {
    expect(removeTags('a > b')).toBe('a   b');
  });
});

describe('javaTrim', () => {
  it('strips characters up to U+0020 only', () => {
    expect(javaTrim('\u0001 a b\t\n')).toBe('a b');
    expect(javaTrim('\u00a0a\u00a0')).toBe('\u00a0a\u00a0');
  });
});

describe('focalPoint', () => {
  it('prints Java doubles, defaulting to the centre', () => {
    expect(focalPoint({ mediaFocalPoint: { x: 0.3, y: new JDouble(1) } })).toBe('0.3,1.0');
    expect(focalPoint({ mediaFocalPoint: {} })).toBe('0.0,0.0');
    expect(focalPoint({})).toBe('0.5,0.5');
    expect(focalPoint(undefined)).toBe('0.5,0.5');
  });
});

describe('altText', () => {
  it('uses altText only for the IMAGE block type', () => {
    expect(altText({ altText: 'a', title: 't' }, 5)).toBe('a');
    expect(altText({ altText: 'a', title: 't' }, 4)).toBe('t');
    expect(altText({ altText: 'a', title: 't' }, undefined)).toBe('t');
    expect(altText({ altText: null }, 5)).toBe('');
  });
});

describe('imageMeta', () => {
  it('ends every attribute with a space and escapes only alt', () => {
    expect(imageMeta({ assetUrl: '/a"b', title: '"t"' }, undefined)).toBe(
      'data-src="/a"b" data-image="/a"b" data-image-dimensions="" data-image-focal-point="0.5,0.5" alt="&quot;t&quot;" ',
    );
  });
  it('is empty for a missing image only', () => {
    expect(imageMeta(undefined, 5)).toBe('');
    expect(imageMeta(null, undefined)).not.toBe('');
  });
});
