package io.fluxdrm.showcase.plot;

import io.fluxdrm.showcase.timeline.Timeline;

/** The two pictures of a {@link Timeline}, from one layout. */
public final class Plots {
  /** The default width in pixels. */
  public static final int DEFAULT_WIDTH = SceneLayout.DEFAULT_WIDTH;

  /** The smallest and largest width or height accepted. */
  public static final int MIN_WIDTH = SceneLayout.MIN_WIDTH;

  public static final int MAX_SIDE = SceneLayout.MAX_SIDE;

  private Plots() {}

  /** The picture's model: its counts, legend, texts and marks, and what the writers draw. */
  public static Picture picture(Timeline t, String title, int width, int height) {
    return SceneLayout.picture(t, title, width, height);
  }

  /** The picture as SVG text. */
  public static String svg(Timeline t, String title, int width, int height) {
    return SvgWriter.write(picture(t, title, width, height).scene());
  }

  /** The picture as PNG bytes. */
  public static byte[] png(Timeline t, String title, int width, int height) {
    return PngWriter.write(picture(t, title, width, height).scene());
  }
}
