package io.fluxdrm.showcase.plot;

import static io.fluxdrm.showcase.plot.LayoutModel.DAEMON;
import static io.fluxdrm.showcase.plot.LayoutModel.GROW;
import static io.fluxdrm.showcase.plot.LayoutModel.HELD;
import static io.fluxdrm.showcase.plot.LayoutModel.INK;
import static io.fluxdrm.showcase.plot.LayoutModel.MUTED;
import static io.fluxdrm.showcase.plot.LayoutModel.RELEASING;
import static io.fluxdrm.showcase.plot.LayoutModel.SESSION;
import static io.fluxdrm.showcase.plot.LayoutModel.SHRINK;
import static io.fluxdrm.showcase.plot.MarkShapes.circle;
import static io.fluxdrm.showcase.plot.MarkShapes.diamond;
import static io.fluxdrm.showcase.plot.MarkShapes.leftTri;
import static io.fluxdrm.showcase.plot.MarkShapes.right;
import static io.fluxdrm.showcase.plot.MarkShapes.triangle;
import static io.fluxdrm.showcase.plot.RowLayout.rowSymbol;
import static io.fluxdrm.showcase.plot.SceneLayout.fit;
import static io.fluxdrm.showcase.plot.SceneLayout.when;

import io.fluxdrm.showcase.timeline.Timeline;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The top of a {@link SceneLayout}'s picture (decision D541): the title, the summary of what
 * happened (each event counted once) in lines that fit, and the legend of every kind of mark drawn.
 */
final class HeaderLegend {
  private final LayoutModel model;
  private final MarkShapes marks;

  HeaderLegend(LayoutModel model, MarkShapes marks) {
    this.model = model;
    this.marks = marks;
  }

  // ---- header and legend -----------------------------------------------------------------------

  /** The title and the summary's lines; returns the last line's baseline. */
  double header(List<String> summary) {
    String head = fit("Allocation over time: " + model.title, model.width - 32, 18, true);
    model.text(16, 28, head, 18, INK, Scene.Anchor.START, true, "title");
    double y = 28;
    for (String line : summary) {
      y += line == summary.get(0) ? 20 : 16;
      model.text(16, y, line, 12, MUTED, Scene.Anchor.START, false, "summary");
    }
    return y;
  }

  /** What happened, each event once, and when; in lines that fit the picture. */
  List<String> summary(Picture.Counts c) {
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
    parts.add(when(model.t));
    List<String> lines = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    double room = model.width - 32;
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

  /** The kinds of symbol drawn, in the legend's order, and the words on bars. */
  List<Picture.LegendEntry> legendEntries() {
    Set<Picture.Symbol> used = EnumSet.noneOf(Picture.Symbol.class);
    for (Timeline.Mark m : model.t.marks()) {
      Picture.Symbol s = rowSymbol(m);
      if (s != null && m.row() >= 0) {
        used.add(s);
      }
    }
    for (LaneLayout.Item it : LaneLayout.items(model.t)) {
      used.add(it.symbol());
    }
    for (Timeline.Bar b : model.t.bars()) {
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
    if (!model.t.bars().isEmpty()) {
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
  double legend(List<Picture.LegendEntry> entries, double y) {
    double x = 16;
    for (Picture.LegendEntry e : entries) {
      double sw = e.symbol() == null ? 0 : e.symbol() == Picture.Symbol.DAEMON ? 40 : 26;
      double ww = TextBox.width(e.words(), 12, false);
      if (x > 16 && x + sw + ww > model.width - 16) {
        x = 16;
        y += 18;
      }
      if (e.symbol() != null) {
        legendSymbol(e.symbol(), x + 6, y - 4);
      }
      model.text(
          x + sw,
          y,
          fit(e.words(), model.width - 16 - x - sw, 12, false),
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
      case GROW -> model.out.add(marks.poly(triangle(sx, sy, 5, true), GROW, "legend"));
      case SHRINK -> model.out.add(marks.poly(triangle(sx, sy, 5, false), SHRINK, "legend"));
      case RELEASING ->
          model.out.add(
              new Scene.Rect(
                  sx - 6, sy - 6, 14, 12, RELEASING, 0.35, RELEASING, null, "legend", null, null));
      case HELD -> {
        marks.pause(sx, sy, null, null, "legend");
        model.out.add(new Scene.Line(sx + 6, sy, sx + 16, sy, HELD, 2, true));
      }
      case DENIED -> marks.cross(sx, sy, SHRINK, null, null, "legend");
      case ROLLBACK -> marks.cross(sx, sy, DAEMON, null, null, "legend");
      case CANCELED ->
          model.out.add(
              new Scene.Poly(circle(sx, sy, 4), "#ffffff", MUTED, 1.5, null, "legend", null, null));
      case SESSION ->
          model.out.add(
              new Scene.Poly(
                  diamond(sx, sy, 5), SESSION, "#ffffff", 1, null, "legend", null, null));
      case DAEMON -> {
        model.out.add(
            new Scene.Rect(sx - 6, sy + 3, 30, 3, DAEMON, 1, null, null, "legend", null, null));
        model.out.add(
            new Scene.Poly(right(sx - 2, sy, 3), "#ffffff", DAEMON, 1, null, "legend", null, null));
        model.out.add(
            new Scene.Poly(right(sx + 9, sy, 3), DAEMON, DAEMON, 1, null, "legend", null, null));
        model.out.add(
            new Scene.Poly(leftTri(sx + 20, sy, 3), DAEMON, DAEMON, 1, null, "legend", null, null));
      }
    }
  }

  private static String plural(long n) {
    return n == 1 ? "" : "s";
  }
}
