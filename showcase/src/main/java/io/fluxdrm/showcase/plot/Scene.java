package io.fluxdrm.showcase.plot;

import java.util.List;

/**
 * A picture as shapes in pixels, origin top left: what both the SVG and the PNG writer draw, so
 * that the two show the same thing. Colours are {@code #rrggbb}.
 *
 * @param width the width
 * @param height the height
 * @param shapes the shapes, drawn in order
 */
record Scene(int width, int height, List<Shape> shapes) {
  Scene {
    shapes = List.copyOf(shapes);
  }

  /** A shape; {@code cls}, {@code job} and {@code row} name it in the SVG (class, data-*). */
  sealed interface Shape permits Rect, Text, Line, Poly {}

  /** A rectangle; {@code stroke} may be null, {@code title} is its tooltip (may be null). */
  record Rect(
      double x,
      double y,
      double w,
      double h,
      String fill,
      double opacity,
      String stroke,
      String title,
      String cls,
      String job,
      String row)
      implements Shape {}

  /** Where a text is anchored. */
  enum Anchor {
    START,
    MIDDLE,
    END
  }

  /** A text at its baseline; {@code halo} draws a white outline behind it for contrast. */
  record Text(
      double x,
      double y,
      String text,
      double size,
      String colour,
      Anchor anchor,
      boolean bold,
      boolean halo,
      String cls,
      String job)
      implements Shape {}

  /** A line. */
  record Line(
      double x1, double y1, double x2, double y2, String colour, double width, boolean dashed)
      implements Shape {}

  /**
   * A closed polygon ({@code xy}: x0, y0, x1, y1, ...); {@code fill} or {@code stroke} may be null.
   */
  record Poly(
      double[] xy,
      String fill,
      String stroke,
      double strokeWidth,
      String title,
      String cls,
      String job,
      String row)
      implements Shape {}
}
