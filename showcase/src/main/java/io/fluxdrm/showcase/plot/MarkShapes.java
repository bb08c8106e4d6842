package io.fluxdrm.showcase.plot;

import static io.fluxdrm.showcase.plot.LayoutModel.HELD;

/**
 * The shapes of a {@link SceneLayout}'s marks (decision D541): the triangles of grows and shrinks,
 * the bars of a held request, the cross of a denial or a rollback, and the outlines of the others.
 */
final class MarkShapes {
  private final LayoutModel model;

  MarkShapes(LayoutModel model) {
    this.model = model;
  }

  Scene.Poly poly(double[] xy, String fill, String cls) {
    return new Scene.Poly(xy, fill, null, 0, null, cls, null, null);
  }

  void up(double x, double y, String fill, String tip, String job, String row) {
    model.out.add(
        new Scene.Poly(
            triangle(x, y, Math.max(2.5, Math.min(5.5, model.rowH * 0.24)), true),
            fill,
            "#ffffff",
            1,
            tip,
            "mark grow",
            job,
            row));
  }

  void down(double x, double y, String fill, String tip, String job, String row) {
    model.out.add(
        new Scene.Poly(
            triangle(x, y, Math.max(2.5, Math.min(5.5, model.rowH * 0.24)), false),
            fill,
            "#ffffff",
            1,
            tip,
            "mark shrink",
            job,
            row));
  }

  void pause(double x, double y, String tip, String job, String cls) {
    model.out.add(new Scene.Poly(box(x - 4, y - 5, 3, 10), HELD, null, 0, tip, cls, job, null));
    model.out.add(new Scene.Poly(box(x + 1, y - 5, 3, 10), HELD, null, 0, tip, cls, job, null));
  }

  void cross(double x, double y, String colour, String tip, String row, String cls) {
    double a = 4.5;
    double b = 1.6;
    double[] xy = {
      x - a, y - a + b, x - a + b, y - a, x, y - b, x + a - b, y - a, x + a, y - a + b, x + b, y,
      x + a, y + a - b, x + a - b, y + a, x, y + b, x - a + b, y + a, x - a, y + a - b, x - b, y
    };
    model.out.add(new Scene.Poly(xy, colour, null, 0, tip, cls, null, row));
  }

  static double[] triangle(double x, double y, double s, boolean up) {
    return up
        ? new double[] {x - s, y + s * 0.8, x + s, y + s * 0.8, x, y - s}
        : new double[] {x - s, y - s * 0.8, x + s, y - s * 0.8, x, y + s};
  }

  static double[] right(double x, double y, double s) {
    return new double[] {x - s, y - s, x + s, y, x - s, y + s};
  }

  static double[] leftTri(double x, double y, double s) {
    return new double[] {x + s, y - s, x - s, y, x + s, y + s};
  }

  static double[] diamond(double x, double y, double s) {
    return new double[] {x, y - s, x + s, y, x, y + s, x - s, y};
  }

  private static double[] box(double x, double y, double w, double h) {
    return new double[] {x, y, x + w, y, x + w, y + h, x, y + h};
  }

  static double[] circle(double x, double y, double r) {
    double[] xy = new double[24];
    for (int i = 0; i < 12; i++) {
      xy[2 * i] = x + r * Math.cos(i * Math.PI / 6);
      xy[2 * i + 1] = y + r * Math.sin(i * Math.PI / 6);
    }
    return xy;
  }
}
