package io.fluxdrm.showcase.plot;

import io.fluxdrm.showcase.timeline.Timeline;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the parts of a {@link SceneLayout} share (decision D541): the timeline, the title and the
 * width, the measures every piece is placed from (the left margin from the longest node name, the
 * plot's width, the lane's and the rows' tops, the row height), computed once per layout, the
 * shapes drawn so far and the marks' labels; the colours of the picture's ink, and where a time
 * falls.
 */
final class LayoutModel {
  static final String INK = "#1f2328";
  static final String MUTED = "#57606a";
  static final String GRID = "#d0d7de";
  static final String STRIPE = "#f3f5f7";
  static final String GROW = "#1a7f37";
  static final String SHRINK = "#cf222e";
  static final String HELD = "#bf6a02";
  static final String DAEMON = "#24292f";
  static final String SESSION = "#8250df";
  static final String RELEASING = "#4e79a7";

  Timeline t;
  String title;
  int width;
  List<Scene.Shape> out = new ArrayList<>();
  List<Picture.Drawn> drawn = new ArrayList<>();
  List<String> colours;
  Map<String, Integer> laneLabels = new HashMap<>();
  int texts;
  double left;
  double plotW;
  double rowsTop;
  double rowH;
  double laneTop;

  LayoutModel(Timeline t, String title, int width) {
    this.t = t;
    this.title = title;
    this.width = width;
    this.colours = JobColours.of(t.jobs().size());
  }

  double x(long at) {
    return left + plotW * ((double) at / t.span());
  }

  void text(
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
}
