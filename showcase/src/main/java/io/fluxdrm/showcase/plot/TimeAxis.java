package io.fluxdrm.showcase.plot;

import static io.fluxdrm.showcase.plot.LayoutModel.GRID;
import static io.fluxdrm.showcase.plot.LayoutModel.INK;

import java.util.Locale;

/**
 * The time axis of a {@link SceneLayout}'s picture (decision D541): its line, the grid, the ticks
 * at a round step in the largest unit that keeps numbers readable, and its label.
 */
final class TimeAxis {
  private final LayoutModel model;

  TimeAxis(LayoutModel model) {
    this.model = model;
  }

  // ---- the time axis ---------------------------------------------------------------------------

  void axis(int h) {
    double yAxis = model.rowsTop + model.t.rows().size() * model.rowH + 2;
    model.out.add(
        new Scene.Line(model.left, yAxis, model.left + model.plotW, yAxis, INK, 1, false));
    Unit u = Unit.of(model.t.span());
    boolean instant = model.t.span() <= 1;
    long step =
        instant
            ? Long.MAX_VALUE
            : Math.max(1, (long) (niceStep(model.t.span() / 8.0 / u.ns) * u.ns));
    for (long v = 0; v <= model.t.span(); v += step) {
      double x = model.x(v);
      model.out.add(new Scene.Line(x, model.laneTop, x, yAxis, GRID, 0.6, true));
      model.out.add(new Scene.Line(x, yAxis, x, yAxis + 5, INK, 1, false));
      model.text(
          x, yAxis + 18, number((double) v / u.ns), 11, INK, Scene.Anchor.MIDDLE, false, "tick");
      if (step == Long.MAX_VALUE || v > Long.MAX_VALUE - step) {
        break;
      }
    }
    model.text(
        model.left + model.plotW / 2,
        Math.min(h - 10, yAxis + 40),
        instant ? "time (every line at one instant)" : "time (" + u.name + ")",
        12,
        INK,
        Scene.Anchor.MIDDLE,
        true,
        "axis-label");
  }

  /** A unit of time for the axis and the durations: the largest that keeps numbers readable. */
  private record Unit(String name, long ns) {
    static Unit of(long span) {
      if (span >= 20 * 60_000_000_000L) {
        return new Unit("min", 60_000_000_000L);
      }
      if (span >= 20_000_000_000L) {
        return new Unit("s", 1_000_000_000L);
      }
      if (span >= 20_000_000L) {
        return new Unit("ms", 1_000_000L);
      }
      if (span >= 20_000L) {
        return new Unit("µs", 1_000L);
      }
      return new Unit("ns", 1);
    }
  }

  private static double niceStep(double raw) {
    double p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= raw) {
        return Math.max(1, m * p);
      }
    }
    return 10 * p;
  }

  private static String number(double v) {
    if (v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%d", (long) v);
    }
    return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
  }
}
