package io.fluxdrm.cli.plot;

import io.fluxdrm.cli.timeline.Timeline;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Lays a {@link Timeline} out as a {@link Picture}: a title and a summary of what happened (each
 * event counted once), a legend of every kind of mark drawn, the lane of requests ({@link
 * LaneLayout}: held, denied, rolled back and cancelled requests and the sessions' events, each with
 * its text), then one row per node (its name on the left, the jobs' bars in their colours with the
 * job id on or next to its widest bar, ▲/▼ where a grant added or took the node, a thin dark strip
 * while a DVM daemon runs there, ▸ when it starts and ◂ when it leaves, ◆ a session's event), and
 * the time axis. Text widths are estimated ({@link TextBox}), so that the SVG and the PNG agree,
 * and every text is placed where it meets no other and stays within the picture (D495).
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
  private static final String RELEASING = "#4e79a7";

  /** Time stamps as the summary prints them: UTC, to the millisecond. */
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /** Before this, a transcript's clock is a test's (it starts at the epoch), not a date. */
  private static final Instant DATED = Instant.parse("2000-01-01T00:00:00Z");

  private final Timeline t;
  private final String title;
  private final int width;
  private final List<Scene.Shape> out = new ArrayList<>();
  private final List<Picture.Drawn> drawn = new ArrayList<>();
  private final List<String> colours;
  private final Map<String, Integer> laneLabels = new HashMap<>();
  private int texts;
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
   * The picture of {@code t}.
   *
   * @param title the title's subject (a file name, "live")
   * @param width the picture's width in pixels
   * @param height the height, or 0 to fit the rows (about 24 px each)
   */
  static Picture picture(Timeline t, String title, int width, int height) {
    return new SceneLayout(t, title, width).layout(height);
  }

  /** The scene of {@link #picture}. */
  static Scene of(Timeline t, String title, int width, int height) {
    return picture(t, title, width, height).scene();
  }

  /** The colour of each job, by index. */
  static List<String> colours(Timeline t) {
    return JobColours.of(t.jobs().size());
  }

  private Picture layout(int height) {
    int n = Math.max(1, t.rows().size());
    double longest = 6;
    for (Timeline.Row r : t.rows()) {
      longest = Math.max(longest, TextBox.width(r.name(), 12, false));
    }
    left = Math.ceil(Math.max(longest, TextBox.width("requests", 11, true)) + 24);
    plotW = width - left - 28;
    Picture.Counts counts = Picture.Counts.of(t);
    out.add(new Scene.Rect(0, 0, width, 1, "#ffffff", 1, null, null, "background", null, null));
    List<String> summary = summary(counts);
    double y = header(summary);
    List<Picture.LegendEntry> legend = legendEntries();
    y = legend(legend, y + 24);
    laneTop = y + 14;
    List<LaneLayout.Item> items = LaneLayout.items(t);
    LaneLayout.Plan plan = LaneLayout.plan(items, this::x, left, width - 4);
    int lanes = Math.max(1, plan.lanes());
    rowsTop = laneTop + lanes * LaneLayout.LANE_H + 14;
    double bottom = 58;
    if (height > 0) {
      rowH = Math.max(2, (height - rowsTop - bottom) / n);
    } else {
      rowH = n <= 32 ? 24 : Math.max(6, Math.min(24, 760.0 / n));
    }
    int h = height > 0 ? height : (int) Math.ceil(rowsTop + n * rowH + bottom);
    out.set(0, new Scene.Rect(0, 0, width, h, "#ffffff", 1, null, null, "background", null, null));
    lane(plan, lanes);
    rows();
    axis(h);
    Scene scene = new Scene(width, h, out);
    List<Picture.Label> labels = new ArrayList<>();
    for (Scene.Shape s : out) {
      if (s instanceof Scene.Text x) {
        TextBox b = TextBox.of(x);
        labels.add(new Picture.Label(x.text(), x.cls(), b.x(), b.y(), b.w(), b.h()));
      }
    }
    return new Picture(scene, counts, summary, legend, labels, drawn);
  }

  // ---- header and legend -----------------------------------------------------------------------

  /** The title and the summary's lines; returns the last line's baseline. */
  private double header(List<String> summary) {
    String head = fit("Allocation over time: " + title, width - 32, 18, true);
    text(16, 28, head, 18, INK, Scene.Anchor.START, true, "title");
    double y = 28;
    for (String line : summary) {
      y += line == summary.get(0) ? 20 : 16;
      text(16, y, line, 12, MUTED, Scene.Anchor.START, false, "summary");
    }
    return y;
  }

  /** What happened, each event once, and when; in lines that fit the picture. */
  private List<String> summary(Picture.Counts c) {
    List<String> parts = new ArrayList<>();
    parts.add(c.nodes() + " node" + plural(c.nodes()));
    parts.add(c.jobs() + " job" + plural(c.jobs()));
    parts.add(
        c.grows()
            + " grow"
            + plural(c.grows())
            + " (+"
            + c.grownNodes()
            + " node"
            + plural(c.grownNodes())
            + " ▲)");
    parts.add(
        c.shrinks()
            + " shrink"
            + plural(c.shrinks())
            + " (−"
            + c.shrunkNodes()
            + " node"
            + plural(c.shrunkNodes())
            + " ▼)");
    parts.add(c.held() + " held");
    parts.add(c.denied() + " denied");
    if (c.rolledBack() > 0) {
      parts.add(c.rolledBack() + " rolled back");
    }
    if (c.canceled() > 0) {
      parts.add(c.canceled() + " cancelled");
    }
    parts.add(when(t));
    List<String> lines = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    double room = width - 32;
    for (String p : parts) {
      String next = cur.length() == 0 ? p : cur + ", " + p;
      if (cur.length() > 0 && TextBox.width(next, 12, false) > room) {
        lines.add(cur + ",");
        cur = new StringBuilder(p);
      } else {
        cur = new StringBuilder(next);
      }
    }
    lines.add(cur.toString());
    lines.replaceAll(l -> fit(l, room, 12, false));
    return lines;
  }

  /**
   * When the timeline happened: its length and its start to the millisecond, or only its length
   * when its clock is a test's (times from the epoch), or that every line has one time stamp.
   */
  static String when(Timeline t) {
    if (t.span() <= 1) {
      return "every line at one instant (no time passes)";
    }
    if (t.start().isBefore(DATED)) {
      return "over " + duration(t.span()) + ", times from the first line";
    }
    return "over " + duration(t.span()) + " from " + stamp(t.start());
  }

  /** An instant in UTC to the millisecond, rounded: {@code 2026-12-06T13:04:47.181Z}. */
  static String stamp(Instant i) {
    return STAMP.format(i.plusNanos(500_000).truncatedTo(ChronoUnit.MILLIS));
  }

  /** The kinds of symbol drawn, in the legend's order, and the words on bars. */
  private List<Picture.LegendEntry> legendEntries() {
    Set<Picture.Symbol> used = EnumSet.noneOf(Picture.Symbol.class);
    for (Timeline.Mark m : t.marks()) {
      Picture.Symbol s = rowSymbol(m);
      if (s != null && m.row() >= 0) {
        used.add(s);
      }
    }
    for (LaneLayout.Item it : LaneLayout.items(t)) {
      used.add(it.symbol());
    }
    for (Timeline.Bar b : t.bars()) {
      if (b.phase() == Timeline.Phase.RELEASING) {
        used.add(Picture.Symbol.RELEASING);
      } else if (b.phase() == Timeline.Phase.DAEMON) {
        used.add(Picture.Symbol.DAEMON);
      }
    }
    List<Picture.LegendEntry> l = new ArrayList<>();
    for (Picture.Symbol s : used) {
      l.add(new Picture.LegendEntry(s, words(s)));
    }
    if (!t.bars().isEmpty()) {
      l.add(new Picture.LegendEntry(null, "bars: one colour per job, its id on the bar"));
    }
    return l;
  }

  private static String words(Picture.Symbol s) {
    return switch (s) {
      case GROW -> "grow";
      case SHRINK -> "shrink";
      case RELEASING -> "releasing (shrunk, not yet freed)";
      case HELD -> "held until answered";
      case DENIED -> "denied";
      case ROLLBACK -> "grow rolled back";
      case CANCELED -> "cancelled";
      case DAEMON -> "DVM daemon: start, up, leave";
      case SESSION -> "session paused, resumed, ended";
    };
  }

  /** The legend's entries from {@code y}, wrapped to the picture; returns the last baseline. */
  private double legend(List<Picture.LegendEntry> entries, double y) {
    double x = 16;
    for (Picture.LegendEntry e : entries) {
      double sw = e.symbol() == null ? 0 : e.symbol() == Picture.Symbol.DAEMON ? 40 : 26;
      double ww = TextBox.width(e.words(), 12, false);
      if (x > 16 && x + sw + ww > width - 16) {
        x = 16;
        y += 18;
      }
      if (e.symbol() != null) {
        legendSymbol(e.symbol(), x + 6, y - 4);
      }
      text(
          x + sw,
          y,
          fit(e.words(), width - 16 - x - sw, 12, false),
          12,
          e.symbol() == null ? MUTED : INK,
          Scene.Anchor.START,
          false,
          "legend");
      x += sw + ww + 18;
    }
    return y;
  }

  private void legendSymbol(Picture.Symbol s, double sx, double sy) {
    switch (s) {
      case GROW -> out.add(poly(triangle(sx, sy, 5, true), GROW, "legend"));
      case SHRINK -> out.add(poly(triangle(sx, sy, 5, false), SHRINK, "legend"));
      case RELEASING ->
          out.add(
              new Scene.Rect(
                  sx - 6, sy - 6, 14, 12, RELEASING, 0.35, RELEASING, null, "legend", null, null));
      case HELD -> {
        pause(sx, sy, null, null, "legend");
        out.add(new Scene.Line(sx + 6, sy, sx + 16, sy, HELD, 2, true));
      }
      case DENIED -> cross(sx, sy, SHRINK, null, null, "legend");
      case ROLLBACK -> cross(sx, sy, DAEMON, null, null, "legend");
      case CANCELED ->
          out.add(
              new Scene.Poly(circle(sx, sy, 4), "#ffffff", MUTED, 1.5, null, "legend", null, null));
      case SESSION ->
          out.add(
              new Scene.Poly(
                  diamond(sx, sy, 5), SESSION, "#ffffff", 1, null, "legend", null, null));
      case DAEMON -> {
        out.add(new Scene.Rect(sx - 6, sy + 3, 30, 3, DAEMON, 1, null, null, "legend", null, null));
        out.add(
            new Scene.Poly(right(sx - 2, sy, 3), "#ffffff", DAEMON, 1, null, "legend", null, null));
        out.add(
            new Scene.Poly(right(sx + 9, sy, 3), DAEMON, DAEMON, 1, null, "legend", null, null));
        out.add(
            new Scene.Poly(leftTri(sx + 20, sy, 3), DAEMON, DAEMON, 1, null, "legend", null, null));
      }
    }
  }

  // ---- the lane of requests --------------------------------------------------------------------

  private void lane(LaneLayout.Plan plan, int lanes) {
    text(left - 8, laneTop + 12, "requests", 11, MUTED, Scene.Anchor.END, true, "axis-label");
    double bottomLine = laneTop + lanes * LaneLayout.LANE_H + 4;
    out.add(new Scene.Line(left, bottomLine, left + plotW, bottomLine, GRID, 1, false));
    for (LaneLayout.Group g : plan.groups()) {
      double y = laneTop + g.lane() * LaneLayout.LANE_H + 8.5;
      for (LaneLayout.Item it : g.items()) {
        double x = x(it.at());
        if (it.waitIndex() >= 0) {
          // under the sub-lane's text, from the request to its answer
          double yl = y + 7.5;
          out.add(new Scene.Line(x - 4, yl, Math.max(x(it.until()), x + 4), yl, HELD, 1.5, true));
        }
        switch (it.symbol()) {
          case DENIED -> cross(x, y, SHRINK, it.tip(), null, "mark denied");
          case ROLLBACK -> cross(x, y, DAEMON, it.tip(), null, "mark rollback");
          case HELD -> pause(x, y, it.tip(), it.job(), "mark held");
          case SESSION ->
              out.add(
                  new Scene.Poly(
                      diamond(x, y, 4.5),
                      SESSION,
                      "#ffffff",
                      1,
                      it.tip(),
                      "mark session",
                      it.job(),
                      null));
          default ->
              out.add(
                  new Scene.Poly(
                      circle(x, y, 4),
                      "#ffffff",
                      MUTED,
                      1.5,
                      it.tip(),
                      "mark canceled",
                      it.job(),
                      null));
        }
      }
      int label = -1;
      if (!g.text().isEmpty()) {
        label = texts;
        out.add(
            new Scene.Text(
                g.tx(),
                y + 4,
                g.text(),
                LaneLayout.FONT,
                INK,
                Scene.Anchor.START,
                false,
                true,
                "mark-text",
                g.items().get(0).job()));
        texts++;
      }
      for (LaneLayout.Item it : g.items()) {
        for (int m : it.marks()) {
          Timeline.Mark mk = t.marks().get(m);
          // a mark drawn on a row too (a session's, the node of a rolled-back grow) is labelled
          // here, at its time
          laneLabels.put(it.symbol() + "@" + mk.at(), label);
          if (mk.row() < 0) {
            drawn.add(new Picture.Drawn(m, -1, it.symbol(), label));
          }
        }
        if (it.waitIndex() >= 0) {
          drawn.add(new Picture.Drawn(-1, it.waitIndex(), Picture.Symbol.HELD, label));
        }
      }
    }
  }

  // ---- rows ------------------------------------------------------------------------------------

  private void rows() {
    List<Timeline.Row> rs = t.rows();
    double fs = Math.min(12, Math.max(7, rowH * 0.6));
    // a name every k rows, so that their boxes never meet, none above the rows' top (where "node"
    // is written)
    int every = (int) Math.ceil(((TextBox.ASCENT + TextBox.DESCENT) * fs + 1) / rowH);
    double nodeY = rowsTop - 4;
    text(left - 8, nodeY, "node", 11, MUTED, Scene.Anchor.END, true, "axis-label");
    int next = 0;
    for (int i = 0; i < rs.size(); i++) {
      double y = rowsTop + i * rowH;
      if (i % 2 == 1) {
        out.add(new Scene.Rect(left, y, plotW, rowH, STRIPE, 1, null, null, "stripe", null, null));
      }
      double base = y + rowH / 2 + fs * 0.36;
      if (i >= next && base - TextBox.ASCENT * fs >= nodeY + TextBox.DESCENT * 11) {
        text(left - 8, base, rs.get(i).name(), fs, INK, Scene.Anchor.END, false, "row");
        next = i + every;
      }
    }
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
    if (rowH < (TextBox.ASCENT + TextBox.DESCENT) * fs + 1) {
      // too thin for a label that keeps clear of the next row's
      return;
    }
    boolean[] labelled = new boolean[t.jobs().size()];
    for (int i = 0; i < bs.size(); i++) {
      Timeline.Bar b = bs.get(i);
      if (b.job() < 0 || b.phase() != Timeline.Phase.HELD) {
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
    double w = TextBox.width(label, fs, true);
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
      texts++;
      return true;
    }
    if (outside && freeAfter(b, bs) >= w + 6) {
      out.add(
          new Scene.Text(
              x1 + 3, y, label, fs, INK, Scene.Anchor.START, true, true, "job-label", label));
      texts++;
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

  /** The free width on the bar's row right of it, up to the next bar or the plot's edge. */
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

  /** How a mark on a row is drawn. */
  private static Picture.Symbol rowSymbol(Timeline.Mark m) {
    return switch (m.kind()) {
      case GROW -> Picture.Symbol.GROW;
      case SHRINK -> Picture.Symbol.SHRINK;
      case DAEMON_START, DAEMON_UP, DAEMON_LEFT -> Picture.Symbol.DAEMON;
      case ROLLBACK -> Picture.Symbol.ROLLBACK;
      case SESSION -> Picture.Symbol.SESSION;
      default -> null;
    };
  }

  private void rowMarks() {
    double s = Math.max(2.5, Math.min(5.5, rowH * 0.24));
    List<Timeline.Mark> ms = t.marks();
    for (int i = 0; i < ms.size(); i++) {
      Timeline.Mark m = ms.get(i);
      Picture.Symbol symbol = rowSymbol(m);
      if (m.row() < 0 || symbol == null) {
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
        case ROLLBACK -> cross(x, y + rowH / 2, DAEMON, tip, row, "mark rollback");
        default ->
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
      }
      drawn.add(
          new Picture.Drawn(i, -1, symbol, laneLabels.getOrDefault(symbol + "@" + m.at(), -1)));
    }
  }

  // ---- the time axis ---------------------------------------------------------------------------

  private void axis(int h) {
    double yAxis = rowsTop + t.rows().size() * rowH + 2;
    out.add(new Scene.Line(left, yAxis, left + plotW, yAxis, INK, 1, false));
    Unit u = Unit.of(t.span());
    boolean instant = t.span() <= 1;
    long step =
        instant ? Long.MAX_VALUE : Math.max(1, (long) (niceStep(t.span() / 8.0 / u.ns) * u.ns));
    for (long v = 0; v <= t.span(); v += step) {
      double x = x(v);
      out.add(new Scene.Line(x, laneTop, x, yAxis, GRID, 0.6, true));
      out.add(new Scene.Line(x, yAxis, x, yAxis + 5, INK, 1, false));
      text(x, yAxis + 18, number((double) v / u.ns), 11, INK, Scene.Anchor.MIDDLE, false, "tick");
      if (step == Long.MAX_VALUE || v > Long.MAX_VALUE - step) {
        break;
      }
    }
    text(
        left + plotW / 2,
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

  // ---- helpers ---------------------------------------------------------------------------------

  private double x(long at) {
    return left + plotW * ((double) at / t.span());
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

  /** A duration in its unit, three significant digits: {@code 1.16 s}, {@code 350 µs}. */
  static String duration(long ns) {
    long a = Math.abs(ns);
    String unit;
    double v;
    if (a >= 120_000_000_000L) {
      unit = "min";
      v = ns / 60e9;
    } else if (a >= 1_000_000_000L) {
      unit = "s";
      v = ns / 1e9;
    } else if (a >= 1_000_000L) {
      unit = "ms";
      v = ns / 1e6;
    } else if (a >= 1_000L) {
      unit = "µs";
      v = ns / 1e3;
    } else {
      return ns + " ns";
    }
    String f = Math.abs(v) >= 100 ? "%.0f" : Math.abs(v) >= 10 ? "%.1f" : "%.2f";
    return String.format(Locale.ROOT, f, v) + " " + unit;
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

  /** {@code s}, cut short with "…" to fit {@code room} pixels. */
  static String fit(String s, double room, double size, boolean bold) {
    if (TextBox.width(s, size, bold) <= room) {
      return s;
    }
    for (int len = s.length() - 1; len > 0; len--) {
      String c = s.substring(0, len).strip() + "…";
      if (TextBox.width(c, size, bold) <= room) {
        return c;
      }
    }
    return "";
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
    texts++;
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

  private void cross(double x, double y, String colour, String tip, String row, String cls) {
    double a = 4.5;
    double b = 1.6;
    double[] xy = {
      x - a, y - a + b, x - a + b, y - a, x, y - b, x + a - b, y - a, x + a, y - a + b, x + b, y,
      x + a, y + a - b, x + a - b, y + a, x, y + b, x - a + b, y + a, x - a, y + a - b, x - b, y
    };
    out.add(new Scene.Poly(xy, colour, null, 0, tip, cls, null, row));
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
