package io.fluxdrm.cli.plot;

import io.fluxdrm.cli.timeline.Timeline;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Lays a {@link Timeline} out as a {@link Scene}: a title and a one-line summary, a legend of the
 * marks, the lane of requests (denials, held and cancelled requests with their text, waits as
 * dashed lines), then one row per node (its name on the left, the jobs' bars in their colours with
 * the job id on or next to its widest bar, ▲/▼ where a grant added or took the node, a thin dark
 * strip while a DVM daemon runs there, ▸ when it starts and ◂ when it leaves), and the time axis.
 * Text widths are estimated (0.6 em a character), so that the SVG and the PNG agree.
 *
 * <p>Why one class: every piece of the picture is placed from the same few measures (the left
 * margin from the longest node name, the row height, the plot's width, the lane's top), computed
 * once per layout; split up, each part would take them all as arguments.
 */
final class SceneLayout {
  static final int DEFAULT_WIDTH = 1200;
  static final int MIN_WIDTH = 480;
  static final int MAX_SIDE = 16_384;

  private static final String INK = "#1f2328";
  private static final String MUTED = "#57606a";
  private static final String GRID = "#d0d7de";
  private static final String STRIPE = "#f3f5f7";
  private static final String GROW = "#1a7f37";
  private static final String SHRINK = "#cf222e";
  private static final String HELD = "#bf6a02";
  private static final String DAEMON = "#24292f";
  private static final String SESSION = "#8250df";
  private static final int LANES = 3;
  private static final double LANE_H = 17;

  private final Timeline t;
  private final String title;
  private final int width;
  private final List<Scene.Shape> out = new ArrayList<>();
  private final List<String> colours;
  private double left;
  private double plotW;
  private double rowsTop;
  private double rowH;
  private double laneTop;

  private SceneLayout(Timeline t, String title, int width) {
    this.t = t;
    this.title = title;
    this.width = width;
    this.colours = JobColours.of(t.jobs().size());
  }

  /**
   * The scene of {@code t}.
   *
   * @param title the title's subject (a file name, "live")
   * @param width the picture's width in pixels
   * @param height the height, or 0 to fit the rows (about 24 px each)
   */
  static Scene of(Timeline t, String title, int width, int height) {
    return new SceneLayout(t, title, width).layout(height);
  }

  /** The colour of each job, by index. */
  static List<String> colours(Timeline t) {
    return JobColours.of(t.jobs().size());
  }

  private Scene layout(int height) {
    int n = Math.max(1, t.rows().size());
    double longest = 6;
    for (Timeline.Row r : t.rows()) {
      longest = Math.max(longest, textW(r.name(), 12));
    }
    left = Math.ceil(Math.max(longest, textW("requests", 11)) + 24);
    plotW = width - left - 28;
    laneTop = 96;
    rowsTop = laneTop + LANES * LANE_H + 14;
    double bottom = 58;
    if (height > 0) {
      rowH = Math.max(2, (height - rowsTop - bottom) / n);
    } else {
      rowH = n <= 32 ? 24 : Math.max(6, Math.min(24, 760.0 / n));
    }
    int h = height > 0 ? height : (int) Math.ceil(rowsTop + n * rowH + bottom);
    out.add(new Scene.Rect(0, 0, width, h, "#ffffff", 1, null, null, "background", null, null));
    header();
    legend();
    rows();
    lane();
    axis(h);
    return new Scene(width, h, out);
  }

  // ---- pieces ----------------------------------------------------------------------------------

  private void header() {
    text(16, 28, "Allocation over time: " + title, 18, INK, Scene.Anchor.START, true, "title");
    long grows = t.marks().stream().filter(m -> m.kind() == Timeline.MarkKind.GROW).count();
    long shrinks = t.marks().stream().filter(m -> m.kind() == Timeline.MarkKind.SHRINK).count();
    long denied = t.marks().stream().filter(m -> m.kind() == Timeline.MarkKind.DENIED).count();
    long held = t.marks().stream().filter(m -> m.kind() == Timeline.MarkKind.HELD).count();
    String s =
        String.format(
            Locale.ROOT,
            "%d node%s, %d job%s, %d node grow%s (▲), %d node shrink%s (▼), %d held, %d denied,"
                + " over %s from %s",
            t.rows().size(),
            plural(t.rows().size()),
            t.jobs().size(),
            plural(t.jobs().size()),
            grows,
            plural(grows),
            shrinks,
            plural(shrinks),
            held,
            denied,
            duration(t.span()),
            t.start());
    text(16, 48, s, 12, MUTED, Scene.Anchor.START, false, "summary");
  }

  private void legend() {
    double y = 72;
    double x = 16;
    List<String> items = new ArrayList<>(List.of("grow", "shrink"));
    if (t.bars().stream().anyMatch(b -> b.phase() == Timeline.Phase.RELEASING)) {
      items.add("releasing (shrunk, not yet freed)");
    }
    items.add("held / waiting");
    items.add("denied");
    if (t.bars().stream().anyMatch(b -> b.phase() == Timeline.Phase.DAEMON)) {
      items.add("DVM daemon: start, up, leave");
    }
    for (String words : items) {
      x = legendItem(x, y, words);
    }
    text(
        x,
        y,
        "bars: one colour per job, its id on the bar",
        12,
        MUTED,
        Scene.Anchor.START,
        false,
        "legend");
  }

  /** A legend entry at x: its symbol, then its words; returns where the next one starts. */
  private double legendItem(double x, double y, String words) {
    double sx = x + 6;
    double sy = y - 4;
    switch (words) {
      case "grow" -> out.add(poly(triangle(sx, sy, 5, true), GROW, "legend"));
      case "shrink" -> out.add(poly(triangle(sx, sy, 5, false), SHRINK, "legend"));
      case "releasing (shrunk, not yet freed)" ->
          out.add(
              new Scene.Rect(
                  sx - 6, sy - 6, 14, 12, "#4e79a7", 0.35, "#4e79a7", null, "legend", null, null));
      case "held / waiting" -> pause(sx, sy, null, null, "legend");
      case "denied" -> cross(sx, sy, null, null, "legend");
      default -> {
        out.add(new Scene.Rect(sx - 6, sy + 3, 26, 3, DAEMON, 1, null, null, "legend", null, null));
        out.add(
            new Scene.Poly(right(sx - 3, sy, 3), "#ffffff", DAEMON, 1, null, "legend", null, null));
        out.add(
            new Scene.Poly(right(sx + 7, sy, 3), DAEMON, DAEMON, 1, null, "legend", null, null));
        out.add(
            new Scene.Poly(leftTri(sx + 17, sy, 3), DAEMON, DAEMON, 1, null, "legend", null, null));
        sx += 14;
      }
    }
    text(sx + 12, y, words, 12, INK, Scene.Anchor.START, false, "legend");
    return sx + 12 + textW(words, 12) + 18;
  }

  private void rows() {
    List<Timeline.Row> rs = t.rows();
    double fs = Math.min(12, Math.max(7, rowH * 0.6));
    for (int i = 0; i < rs.size(); i++) {
      double y = rowsTop + i * rowH;
      if (i % 2 == 1) {
        out.add(new Scene.Rect(left, y, plotW, rowH, STRIPE, 1, null, null, "stripe", null, null));
      }
      if (rowH >= 7 || i % Math.max(1, (int) Math.ceil(8 / rowH)) == 0) {
        out.add(
            new Scene.Text(
                left - 8,
                y + rowH / 2 + fs * 0.36,
                rs.get(i).name(),
                fs,
                INK,
                Scene.Anchor.END,
                false,
                false,
                "row",
                null));
      }
    }
    text(left - 8, rowsTop - 4, "node", 11, MUTED, Scene.Anchor.END, true, "axis-label");
    bars();
    rowMarks();
  }

  private void bars() {
    double pad = Math.max(0.5, Math.min(3, rowH * 0.12));
    // each job's widest held bar carries its label
    int[] widest = new int[t.jobs().size()];
    Arrays.fill(widest, -1);
    List<Timeline.Bar> bs = t.bars();
    for (int i = 0; i < bs.size(); i++) {
      Timeline.Bar b = bs.get(i);
      if (b.job() >= 0 && b.phase() == Timeline.Phase.HELD) {
        int w = widest[b.job()];
        if (w < 0 || bs.get(w).to() - bs.get(w).from() < b.to() - b.from()) {
          widest[b.job()] = i;
        }
      }
    }
    for (int pass = 0; pass < 2; pass++) {
      for (Timeline.Bar b : bs) {
        if ((b.phase() == Timeline.Phase.DAEMON) != (pass == 1)) {
          continue;
        }
        bar(b, pad);
      }
    }
    java.util.Set<String> shapes = new java.util.HashSet<>();
    for (Timeline.Bar b : bs) {
      shapes.add(blockKey(b, b.row()));
    }
    double fs = Math.min(12, Math.max(7, rowH * 0.55));
    boolean[] labelled = new boolean[t.jobs().size()];
    for (int i = 0; i < bs.size(); i++) {
      Timeline.Bar b = bs.get(i);
      if (b.job() < 0 || b.phase() != Timeline.Phase.HELD || rowH < 8) {
        continue;
      }
      if (!shapes.contains(blockKey(b, b.row() - 1))
          || (i == widest[b.job()] && !labelled[b.job()])) {
        labelled[b.job()] |= label(b, bs, fs, i == widest[b.job()] && !labelled[b.job()]);
      }
    }
    for (int j = 0; j < widest.length; j++) {
      if (widest[j] >= 0 && !labelled[j]) {
        label(bs.get(widest[j]), bs, fs, true);
      }
    }
  }

  /** A bar's job, phase and times on {@code row}: equal keys on adjacent rows form one block. */
  private static String blockKey(Timeline.Bar b, int row) {
    return row + "/" + b.job() + "/" + b.phase() + "/" + b.from() + "/" + b.to();
  }

  /** Writes the job id on the bar, or next to it when {@code outside} and there is room. */
  private boolean label(Timeline.Bar b, List<Timeline.Bar> bs, double fs, boolean outside) {
    String label = t.jobs().get(b.job()).label();
    double x0 = x(b.from());
    double x1 = x(b.to());
    double y = rowsTop + b.row() * rowH + rowH / 2 + fs * 0.36;
    double w = textW(label, fs);
    if (x1 - x0 >= w + 6) {
      out.add(
          new Scene.Text(
              (x0 + x1) / 2,
              y,
              label,
              fs,
              JobColours.textOn(colours.get(b.job())),
              Scene.Anchor.MIDDLE,
              true,
              false,
              "job-label",
              label));
      return true;
    }
    if (outside && freeAfter(b, bs) >= w + 6) {
      out.add(
          new Scene.Text(
              x1 + 3, y, label, fs, INK, Scene.Anchor.START, true, true, "job-label", label));
      return true;
    }
    return false;
  }

  private void bar(Timeline.Bar b, double pad) {
    double x0 = x(b.from());
    double x1 = Math.max(x(b.to()), x0 + 1);
    double y = rowsTop + b.row() * rowH;
    String row = t.rows().get(b.row()).name();
    if (b.phase() == Timeline.Phase.DAEMON) {
      double dh = Math.max(1.5, Math.min(4, rowH * 0.16));
      out.add(
          new Scene.Rect(
              x0,
              y + rowH - pad - dh,
              x1 - x0,
              dh,
              DAEMON,
              1,
              null,
              "DVM daemon on " + row + ", " + span(b),
              "daemon",
              null,
              row));
      return;
    }
    String job = t.jobs().get(b.job()).label();
    String fill = colours.get(b.job());
    boolean rel = b.phase() == Timeline.Phase.RELEASING;
    out.add(
        new Scene.Rect(
            x0,
            y + pad,
            x1 - x0,
            rowH - 2 * pad,
            fill,
            rel ? 0.35 : 1,
            rel ? fill : null,
            job + " on " + row + (rel ? ", releasing, " : ", ") + span(b),
            rel ? "bar releasing" : "bar",
            job,
            row));
  }

  /** The free width on the bar's row right of it, up to the next bar or the edge. */
  private double freeAfter(Timeline.Bar b, List<Timeline.Bar> bs) {
    double next = left + plotW;
    for (Timeline.Bar o : bs) {
      if (o.row() == b.row()
          && o != b
          && o.phase() != Timeline.Phase.DAEMON
          && o.from() >= b.to()) {
        next = Math.min(next, x(o.from()));
      }
    }
    return next - x(b.to());
  }

  private void rowMarks() {
    double s = Math.max(2.5, Math.min(5.5, rowH * 0.24));
    for (Timeline.Mark m : t.marks()) {
      if (m.row() < 0) {
        continue;
      }
      double x = x(m.at());
      double y = rowsTop + m.row() * rowH;
      String row = t.rows().get(m.row()).name();
      String job = m.job() < 0 ? null : t.jobs().get(m.job()).label();
      String tip = describe(m, job, row);
      switch (m.kind()) {
        case GROW -> up(x, y + s + 1, GROW, tip, job, row);
        case SHRINK -> down(x, y + s + 1, SHRINK, tip, job, row);
        case DAEMON_START ->
            out.add(
                new Scene.Poly(
                    right(x + s * 0.8, y + rowH - s, s * 0.8),
                    "#ffffff",
                    DAEMON,
                    1,
                    tip,
                    "mark daemon-start",
                    job,
                    row));
        case DAEMON_UP ->
            out.add(
                new Scene.Poly(
                    right(x + s * 0.8, y + rowH - s, s * 0.8),
                    DAEMON,
                    DAEMON,
                    1,
                    tip,
                    "mark daemon-up",
                    job,
                    row));
        case DAEMON_LEFT ->
            out.add(
                new Scene.Poly(
                    leftTri(x - s * 0.8, y + rowH - s, s * 0.8),
                    DAEMON,
                    DAEMON,
                    1,
                    tip,
                    "mark daemon-left",
                    job,
                    row));
        case ROLLBACK -> cross(x, y + rowH / 2, tip, row, "mark rollback");
        case SESSION -> {
          out.add(
              new Scene.Poly(
                  diamond(x, y + rowH / 2, s),
                  SESSION,
                  "#ffffff",
                  1,
                  tip,
                  "mark session",
                  job,
                  row));
          if (rowH >= 10) {
            text(
                x + s + 3,
                y + rowH / 2 + 4,
                m.text(),
                11,
                SESSION,
                Scene.Anchor.START,
                false,
                "mark-text");
          }
        }
        default -> {}
      }
    }
  }

  private void lane() {
    text(left - 8, laneTop + 12, "requests", 11, MUTED, Scene.Anchor.END, true, "axis-label");
    out.add(
        new Scene.Line(
            left,
            laneTop + LANES * LANE_H + 4,
            left + plotW,
            laneTop + LANES * LANE_H + 4,
            GRID,
            1,
            false));
    double[] lastEnd = new double[LANES];
    Arrays.fill(lastEnd, Double.NEGATIVE_INFINITY);
    for (Timeline.Wait w : t.waits()) {
      double x0 = x(w.from());
      double x1 = Math.max(x(w.to()), x0 + 2);
      double y = laneTop + LANES * LANE_H;
      out.add(new Scene.Line(x0, y, x1, y, HELD, 2, true));
    }
    double right = left + plotW;
    for (Timeline.Mark m : t.marks()) {
      if (m.row() >= 0) {
        continue;
      }
      double x = x(m.at());
      double w = m.text().isEmpty() ? 0 : textW(m.text(), 11);
      double tx = x + 8 + w <= right ? x + 8 : Math.max(left, x - 8 - w);
      double lo = Math.min(x - 6, tx);
      double hi = Math.max(x + 6, tx + w);
      int lane = -1;
      int emptiest = 0;
      for (int i = 0; i < LANES; i++) {
        if (lane < 0 && lastEnd[i] < lo - 6) {
          lane = i;
        }
        if (lastEnd[i] < lastEnd[emptiest]) {
          emptiest = i;
        }
      }
      boolean withText = lane >= 0 && w > 0;
      int at = lane >= 0 ? lane : emptiest;
      double y = laneTop + at * LANE_H + 9;
      String job = m.job() < 0 ? null : t.jobs().get(m.job()).label();
      switch (m.kind()) {
        case DENIED -> cross(x, y, m.text(), null, "mark denied");
        case HELD -> pause(x, y, m.text(), job, "mark held");
        default ->
            out.add(
                new Scene.Poly(
                    circle(x, y, 4), "#ffffff", MUTED, 1.5, m.text(), "mark canceled", job, null));
      }
      if (withText) {
        out.add(
            new Scene.Text(
                tx, y + 4, m.text(), 11, INK, Scene.Anchor.START, false, true, "mark-text", job));
      }
      lastEnd[at] = Math.max(lastEnd[at], withText ? hi : x + 6);
    }
  }

  private void axis(int h) {
    double yAxis = rowsTop + t.rows().size() * rowH + 2;
    out.add(new Scene.Line(left, yAxis, left + plotW, yAxis, INK, 1, false));
    long step = niceStep(t.span() / 8.0);
    String unit = t.span() >= 20_000_000_000L ? "s" : "ms";
    double div = unit.equals("s") ? 1e9 : 1e6;
    for (long v = 0; v <= t.span(); v += step) {
      double x = x(v);
      out.add(new Scene.Line(x, laneTop, x, yAxis, GRID, 0.6, true));
      out.add(new Scene.Line(x, yAxis, x, yAxis + 5, INK, 1, false));
      text(x, yAxis + 18, number(v / div), 11, INK, Scene.Anchor.MIDDLE, false, "tick");
    }
    text(
        left + plotW / 2,
        Math.min(h - 10, yAxis + 40),
        "time (" + unit + ")",
        12,
        INK,
        Scene.Anchor.MIDDLE,
        true,
        "axis-label");
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private double x(long at) {
    return left + plotW * ((double) at / t.span());
  }

  private static long niceStep(double raw) {
    double p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= raw) {
        return Math.max(1, (long) (m * p));
      }
    }
    return (long) (10 * p);
  }

  private static String number(double v) {
    if (v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%d", (long) v);
    }
    return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
  }

  static String duration(long ns) {
    if (ns >= 20_000_000_000L) {
      return String.format(Locale.ROOT, "%.1f s", ns / 1e9);
    }
    return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
  }

  private static String span(Timeline.Bar b) {
    return (b.before() ? "since before the transcript" : "from " + duration(b.from()))
        + " to "
        + duration(b.to());
  }

  private static String describe(Timeline.Mark m, String job, String row) {
    String what =
        switch (m.kind()) {
          case GROW -> "grow: " + row + " added";
          case SHRINK -> "shrink: " + row + " taken";
          case DAEMON_START -> "DVM daemon starts on " + row;
          case DAEMON_UP -> "DVM daemons up (PMIX_DVM_IS_READY)";
          case DAEMON_LEFT -> "DVM daemon left " + row;
          case ROLLBACK -> "grow rolled back on " + row;
          default -> m.text();
        };
    return (job == null ? "" : job + " ") + what + " at " + duration(m.at());
  }

  private static String plural(long n) {
    return n == 1 ? "" : "s";
  }

  static double textW(String s, double size) {
    return s.codePointCount(0, s.length()) * size * 0.6;
  }

  private void text(
      double x,
      double y,
      String s,
      double size,
      String colour,
      Scene.Anchor a,
      boolean bold,
      String cls) {
    out.add(new Scene.Text(x, y, s, size, colour, a, bold, false, cls, null));
  }

  private Scene.Poly poly(double[] xy, String fill, String cls) {
    return new Scene.Poly(xy, fill, null, 0, null, cls, null, null);
  }

  private void up(double x, double y, String fill, String tip, String job, String row) {
    out.add(
        new Scene.Poly(
            triangle(x, y, Math.max(2.5, Math.min(5.5, rowH * 0.24)), true),
            fill,
            "#ffffff",
            1,
            tip,
            "mark grow",
            job,
            row));
  }

  private void down(double x, double y, String fill, String tip, String job, String row) {
    out.add(
        new Scene.Poly(
            triangle(x, y, Math.max(2.5, Math.min(5.5, rowH * 0.24)), false),
            fill,
            "#ffffff",
            1,
            tip,
            "mark shrink",
            job,
            row));
  }

  private void pause(double x, double y, String tip, String job, String cls) {
    out.add(new Scene.Poly(box(x - 4, y - 5, 3, 10), HELD, null, 0, tip, cls, job, null));
    out.add(new Scene.Poly(box(x + 1, y - 5, 3, 10), HELD, null, 0, tip, cls, job, null));
  }

  private void cross(double x, double y, String tip, String row, String cls) {
    double a = 4.5;
    double b = 1.6;
    double[] xy = {
      x - a, y - a + b, x - a + b, y - a, x, y - b, x + a - b, y - a, x + a, y - a + b, x + b, y,
      x + a, y + a - b, x + a - b, y + a, x, y + b, x - a + b, y + a, x - a, y + a - b, x - b, y
    };
    out.add(new Scene.Poly(xy, SHRINK, null, 0, tip, cls, null, row));
  }

  private static double[] triangle(double x, double y, double s, boolean up) {
    return up
        ? new double[] {x - s, y + s * 0.8, x + s, y + s * 0.8, x, y - s}
        : new double[] {x - s, y - s * 0.8, x + s, y - s * 0.8, x, y + s};
  }

  private static double[] right(double x, double y, double s) {
    return new double[] {x - s, y - s, x + s, y, x - s, y + s};
  }

  private static double[] leftTri(double x, double y, double s) {
    return new double[] {x + s, y - s, x - s, y, x + s, y + s};
  }

  private static double[] diamond(double x, double y, double s) {
    return new double[] {x, y - s, x + s, y, x, y + s, x - s, y};
  }

  private static double[] box(double x, double y, double w, double h) {
    return new double[] {x, y, x + w, y, x + w, y + h, x, y + h};
  }

  private static double[] circle(double x, double y, double r) {
    double[] xy = new double[24];
    for (int i = 0; i < 12; i++) {
      xy[2 * i] = x + r * Math.cos(i * Math.PI / 6);
      xy[2 * i + 1] = y + r * Math.sin(i * Math.PI / 6);
    }
    return xy;
  }
}
