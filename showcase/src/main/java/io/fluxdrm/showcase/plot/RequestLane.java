package io.fluxdrm.showcase.plot;

import static io.fluxdrm.showcase.plot.LayoutModel.DAEMON;
import static io.fluxdrm.showcase.plot.LayoutModel.GRID;
import static io.fluxdrm.showcase.plot.LayoutModel.HELD;
import static io.fluxdrm.showcase.plot.LayoutModel.INK;
import static io.fluxdrm.showcase.plot.LayoutModel.MUTED;
import static io.fluxdrm.showcase.plot.LayoutModel.SESSION;
import static io.fluxdrm.showcase.plot.LayoutModel.SHRINK;
import static io.fluxdrm.showcase.plot.MarkShapes.circle;
import static io.fluxdrm.showcase.plot.MarkShapes.diamond;

import io.fluxdrm.showcase.timeline.Timeline;

/**
 * The lane of requests of a {@link SceneLayout}'s picture (decision D541), as {@link LaneLayout}
 * planned it: held, denied, rolled back and cancelled requests and the sessions' events, each group
 * with its text; it notes which text labels each mark, for the rows' marks drawn after it.
 */
final class RequestLane {
  private final LayoutModel model;
  private final MarkShapes marks;

  RequestLane(LayoutModel model, MarkShapes marks) {
    this.model = model;
    this.marks = marks;
  }

  // ---- the lane of requests --------------------------------------------------------------------

  void lane(LaneLayout.Plan plan, int lanes) {
    model.text(
        model.left - 8,
        model.laneTop + 12,
        "requests",
        11,
        MUTED,
        Scene.Anchor.END,
        true,
        "axis-label");
    double bottomLine = model.laneTop + lanes * LaneLayout.LANE_H + 4;
    model.out.add(
        new Scene.Line(
            model.left, bottomLine, model.left + model.plotW, bottomLine, GRID, 1, false));
    for (LaneLayout.Group g : plan.groups()) {
      double y = model.laneTop + g.lane() * LaneLayout.LANE_H + 8.5;
      for (LaneLayout.Item it : g.items()) {
        double x = model.x(it.at());
        if (it.waitIndex() >= 0) {
          // under the sub-lane's text, from the request to its answer
          double yl = y + 7.5;
          model.out.add(
              new Scene.Line(x - 4, yl, Math.max(model.x(it.until()), x + 4), yl, HELD, 1.5, true));
        }
        switch (it.symbol()) {
          case DENIED -> marks.cross(x, y, SHRINK, it.tip(), null, "mark denied");
          case ROLLBACK -> marks.cross(x, y, DAEMON, it.tip(), null, "mark rollback");
          case HELD -> marks.pause(x, y, it.tip(), it.job(), "mark held");
          case SESSION ->
              model.out.add(
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
              model.out.add(
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
        label = model.texts;
        model.out.add(
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
        model.texts++;
      }
      for (LaneLayout.Item it : g.items()) {
        for (int m : it.marks()) {
          Timeline.Mark mk = model.t.marks().get(m);
          // a mark drawn on a row too (a session's, the node of a rolled-back grow) is labelled
          // here, at its time
          model.laneLabels.put(it.symbol() + "@" + mk.at(), label);
          if (mk.row() < 0) {
            model.drawn.add(new Picture.Drawn(m, -1, it.symbol(), label));
          }
        }
        if (it.waitIndex() >= 0) {
          model.drawn.add(new Picture.Drawn(-1, it.waitIndex(), Picture.Symbol.HELD, label));
        }
      }
    }
  }
}
