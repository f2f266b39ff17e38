// The dashboard's charts, drawn as SVG by this code (no library): sign-ups as a line with a point
// per bucket, logins as stacked bars per bucket with the failed part highlighted. Each chart has
// axes, labels, a title and a description for screen readers, and a tooltip per bucket; it is
// drawn for the width it has and drawn again when that changes.

import { bucketLabel, bucketText, number, t } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const HEIGHT = 220;
const MARGIN = { top: 12, right: 22, bottom: 30, left: 44 };

function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** A round upper bound for the y axis and its step: 4 steps of whole numbers. */
export function scale(maximum) {
  if (maximum <= 4) return { top: 4, step: 1 };
  const rough = maximum / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= rough && Number.isInteger(candidate)) || Math.ceil(rough);
  return { top: step * 4, step };
}

/** Axes, grid lines and labels for `buckets` on a plot `width` wide; returns the y mapping. */
function frame(svg, buckets, unit, width, top, step) {
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const y = (value) => MARGIN.top + plotHeight - (value / top) * plotHeight;
  const axes = s('g', { class: 'axes', 'aria-hidden': 'true' });
  for (let value = 0; value <= top; value += step) {
    axes.append(s('line', { class: 'grid', x1: MARGIN.left, x2: width - MARGIN.right, y1: y(value), y2: y(value) }));
    axes.append(s('text', { class: 'tick y-tick', x: MARGIN.left - 6, y: y(value) + 4, 'text-anchor': 'end' }, number(value)));
  }
  const band = plotWidth / buckets.length;
  const every = Math.max(1, Math.ceil(buckets.length / Math.max(2, Math.floor(plotWidth / 56))));
  buckets.forEach((bucket, index) => {
    if ((buckets.length - 1 - index) % every !== 0) return;
    const x = MARGIN.left + band * index + band / 2;
    axes.append(s('line', { class: 'tick-mark', x1: x, x2: x, y1: MARGIN.top + plotHeight, y2: MARGIN.top + plotHeight + 4 }));
    axes.append(s('text', { class: 'tick x-tick', x, y: HEIGHT - 10, 'text-anchor': 'middle' }, bucketLabel(bucket.start, unit)));
  });
  axes.append(s('line', { class: 'axis', x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: MARGIN.top + plotHeight }));
  axes.append(s('line', { class: 'axis', x1: MARGIN.left, x2: width - MARGIN.right, y1: MARGIN.top + plotHeight, y2: MARGIN.top + plotHeight }));
  svg.append(axes);
  return { y, band, plotHeight };
}

function chartElement(id, width, title, description) {
  return s('svg', {
    id, class: 'chart', width, height: HEIGHT, viewBox: `0 0 ${width} ${HEIGHT}`, role: 'img',
    'aria-labelledby': `${id}-title ${id}-desc`,
  }, s('title', { id: `${id}-title` }, title), s('desc', { id: `${id}-desc` }, description));
}

/** Sign-ups per bucket: a line through one point per bucket. */
function signupsChart(id, buckets, unit, width, title) {
  const values = buckets.map((bucket) => bucket.signups);
  const total = values.reduce((sum, value) => sum + value, 0);
  const { top, step } = scale(Math.max(...values, 0));
  const svg = chartElement(id, width, title,
    t('dash.signupsDesc', { total: number(total), max: number(Math.max(...values, 0)), unit: t(`dash.${unit}`) }));
  const { y, band } = frame(svg, buckets, unit, width, top, step);
  const x = (index) => MARGIN.left + band * index + band / 2;
  svg.append(s('polyline', { class: 'line-signups', points: values.map((value, index) => `${x(index)},${y(value)}`).join(' ') }));
  const points = s('g', { class: 'points' });
  values.forEach((value, index) => {
    points.append(s('circle', { class: 'point-signups', cx: x(index), cy: y(value), r: 3.5, 'data-value': value, 'data-start': buckets[index].start },
      s('title', {}, `${bucketText(buckets[index].start, unit)} UTC: ${t('dash.signups')} ${number(value)}`)));
  });
  svg.append(points);
  return svg;
}

/** Logins per bucket: a bar of the succeeded ones with the failed ones stacked on it, highlighted. */
function loginsChart(id, buckets, unit, width, title) {
  const succeeded = buckets.map((bucket) => bucket.logins.succeeded);
  const failed = buckets.map((bucket) => bucket.logins.failed);
  const sum = (list) => list.reduce((total, value) => total + value, 0);
  const { top, step } = scale(Math.max(...buckets.map((_, index) => succeeded[index] + failed[index]), 0));
  const svg = chartElement(id, width, title, t('dash.loginsDesc', { ok: number(sum(succeeded)), failed: number(sum(failed)) }));
  const { y, band } = frame(svg, buckets, unit, width, top, step);
  const barWidth = Math.max(1, band * 0.7);
  const bars = s('g', { class: 'bars' });
  buckets.forEach((bucket, index) => {
    const x = MARGIN.left + band * index + (band - barWidth) / 2;
    const okTop = y(succeeded[index]);
    const failedTop = y(succeeded[index] + failed[index]);
    const tip = `${bucketText(bucket.start, unit)} UTC: ${t('dash.succeeded')} ${number(succeeded[index])}, ${t('dash.failed')} ${number(failed[index])}`;
    bars.append(s('g', { class: 'bucket' },
      s('rect', { class: 'bar-succeeded', x, y: okTop, width: barWidth, height: y(0) - okTop, 'data-value': succeeded[index], 'data-start': bucket.start }, s('title', {}, tip)),
      s('rect', { class: 'bar-failed', x, y: failedTop, width: barWidth, height: okTop - failedTop, 'data-value': failed[index], 'data-start': bucket.start }, s('title', {}, tip))));
  });
  svg.append(bars);
  return svg;
}

const drawers = { signups: signupsChart, logins: loginsChart };
const observed = new WeakMap();

/** Draws chart `kind` (`signups` or `logins`) of `buckets` into `container`, now and whenever its
 * width changes. */
export function draw(container, { id, kind, buckets, unit, title }) {
  const render = () => {
    const width = Math.max(280, Math.floor(container.clientWidth || 640));
    if (observed.get(container)?.width === width && container.firstChild) return;
    observed.set(container, { width });
    container.replaceChildren(drawers[kind](id, buckets, unit, width, title));
  };
  render();
  if (typeof ResizeObserver === 'function') {
    const observer = new ResizeObserver(() => { if (container.isConnected) render(); else observer.disconnect(); });
    observer.observe(container);
  }
}
