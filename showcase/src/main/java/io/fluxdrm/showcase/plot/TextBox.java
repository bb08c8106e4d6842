package io.fluxdrm.showcase.plot;

/**
 * Where a text of the picture is: its box in pixels, from DejaVu Sans's advance widths (the SVG's
 * first font; the PNG draws with Java2D's sans serif), so that the layout can keep texts apart
 * without a font at hand. Widths are the font's, per character, plus 3 % for the fonts the SVG
 * falls back to; heights are its ascent and descent (0.93 and 0.24 em).
 *
 * @param x the left edge
 * @param y the top edge
 * @param w the width
 * @param h the height
 */
record TextBox(double x, double y, double w, double h) {
  /** DejaVu Sans advance widths of U+0020..U+007E, in thousandths of an em. */
  private static final short[] REGULAR = {
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, //
    636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, //
    1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, //
    603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, //
    500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, //
    635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838
  };

  /** DejaVu Sans Bold advance widths of U+0020..U+007E, in thousandths of an em. */
  private static final short[] BOLD = {
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, //
    696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, //
    1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, //
    733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, //
    500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, //
    716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838
  };

  static final double ASCENT = 0.93;
  static final double DESCENT = 0.24;

  /** The width of {@code s} at {@code size} pixels. */
  static double width(String s, double size, boolean bold) {
    double em = 0;
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      i += Character.charCount(c);
      em += advance(c, bold);
    }
    return em / 1000 * size * 1.03;
  }

  private static int advance(int c, boolean bold) {
    if (c >= 0x20 && c <= 0x7e) {
      return (bold ? BOLD : REGULAR)[c - 0x20];
    }
    return switch (c) {
      case 'ƒ' -> bold ? 435 : 352;
      case '·' -> bold ? 380 : 318;
      case 'µ' -> bold ? 736 : 636;
      case '…', '—' -> 1000;
      case '−', '✕', '×' -> 838;
      case '○' -> 873;
      case '▮' -> 550;
      default -> Character.isIdeographic(c) ? 1000 : c >= 0x2190 ? 769 : 700;
    };
  }

  /** The box of a text drawn at baseline {@code (x, y)} with its anchor. */
  static TextBox of(Scene.Text t) {
    double w = width(t.text(), t.size(), t.bold());
    double x =
        switch (t.anchor()) {
          case MIDDLE -> t.x() - w / 2;
          case END -> t.x() - w;
          default -> t.x();
        };
    return new TextBox(x, t.y() - ASCENT * t.size(), w, (ASCENT + DESCENT) * t.size());
  }

  double right() {
    return x + w;
  }

  double bottom() {
    return y + h;
  }

  /** Whether the two boxes share more than an edge. */
  boolean overlaps(TextBox o) {
    double eps = 1e-6;
    return x < o.right() - eps
        && o.x < right() - eps
        && y < o.bottom() - eps
        && o.y < bottom() - eps;
  }

  /** Whether the box lies within {@code [0, width] x [0, height]}. */
  boolean inside(double width, double height) {
    double eps = 1e-6;
    return x >= -eps && y >= -eps && right() <= width + eps && bottom() <= height + eps;
  }
}
