/**
 * Pictures of a {@link io.fluxdrm.showcase.timeline.Timeline} (issue 17 scope 2): one layout
 * ({@code Scene}, shapes in pixels) drawn as SVG text or as a PNG through Java2D, and a text grid
 * for the terminal (decision D426).
 */
package io.fluxdrm.showcase.plot;
