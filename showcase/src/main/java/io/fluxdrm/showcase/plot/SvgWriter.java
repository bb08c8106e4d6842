package io.fluxdrm.showcase.plot;

/** A {@link Scene} as SVG 1.1 text: every text and attribute XML-escaped, numbers with a dot. */
final class SvgWriter {
  private SvgWriter() {}

  static String write(Scene s) {
    StringBuilder b = new StringBuilder(64 + s.shapes().size() * 120);
    b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"")
        .append(" width=\"")
        .append(s.width())
        .append("\" height=\"")
        .append(s.height())
        .append("\" viewBox=\"0 0 ")
        .append(s.width())
        .append(' ')
        .append(s.height())
        .append("\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n");
    for (Scene.Shape shape : s.shapes()) {
      if (shape instanceof Scene.Rect r) {
        rect(b, r);
      } else if (shape instanceof Scene.Text t) {
        text(b, t);
      } else if (shape instanceof Scene.Line l) {
        b.append("<line x1=\"").append(n(l.x1())).append("\" y1=\"").append(n(l.y1()));
        b.append("\" x2=\"").append(n(l.x2())).append("\" y2=\"").append(n(l.y2()));
        b.append("\" stroke=\"")
            .append(esc(l.colour()))
            .append("\" stroke-width=\"")
            .append(n(l.width()))
            .append('"');
        if (l.dashed()) {
          b.append(" stroke-dasharray=\"4 3\"");
        }
        b.append("/>\n");
      } else if (shape instanceof Scene.Poly p) {
        poly(b, p);
      }
    }
    b.append("</svg>\n");
    return b.toString();
  }

  private static void rect(StringBuilder b, Scene.Rect r) {
    b.append("<rect x=\"").append(n(r.x())).append("\" y=\"").append(n(r.y()));
    b.append("\" width=\"").append(n(r.w())).append("\" height=\"").append(n(r.h()));
    b.append("\" fill=\"").append(esc(r.fill())).append('"');
    if (r.opacity() < 1) {
      b.append(" fill-opacity=\"").append(n(r.opacity())).append('"');
    }
    if (r.stroke() != null) {
      b.append(" stroke=\"").append(esc(r.stroke())).append("\" stroke-width=\"1\"");
    }
    names(b, r.cls(), r.job(), r.row());
    closeWithTitle(b, "rect", r.title());
  }

  private static void poly(StringBuilder b, Scene.Poly p) {
    b.append("<polygon points=\"");
    double[] xy = p.xy();
    for (int i = 0; i + 1 < xy.length; i += 2) {
      if (i > 0) {
        b.append(' ');
      }
      b.append(n(xy[i])).append(',').append(n(xy[i + 1]));
    }
    b.append("\" fill=\"").append(p.fill() == null ? "none" : esc(p.fill())).append('"');
    if (p.stroke() != null) {
      b.append(" stroke=\"")
          .append(esc(p.stroke()))
          .append("\" stroke-width=\"")
          .append(n(p.strokeWidth()))
          .append('"');
    }
    names(b, p.cls(), p.job(), p.row());
    closeWithTitle(b, "polygon", p.title());
  }

  private static void text(StringBuilder b, Scene.Text t) {
    b.append("<text x=\"").append(n(t.x())).append("\" y=\"").append(n(t.y()));
    b.append("\" font-size=\"")
        .append(n(t.size()))
        .append("\" fill=\"")
        .append(esc(t.colour()))
        .append('"');
    switch (t.anchor()) {
      case MIDDLE -> b.append(" text-anchor=\"middle\"");
      case END -> b.append(" text-anchor=\"end\"");
      default -> {}
    }
    if (t.bold()) {
      b.append(" font-weight=\"bold\"");
    }
    if (t.halo()) {
      b.append(
          " stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\"");
    }
    names(b, t.cls(), t.job(), null);
    b.append('>').append(esc(t.text())).append("</text>\n");
  }

  private static void names(StringBuilder b, String cls, String job, String row) {
    if (cls != null) {
      b.append(" class=\"").append(esc(cls)).append('"');
    }
    if (job != null) {
      b.append(" data-job=\"").append(esc(job)).append('"');
    }
    if (row != null) {
      b.append(" data-row=\"").append(esc(row)).append('"');
    }
  }

  private static void closeWithTitle(StringBuilder b, String tag, String title) {
    if (title == null) {
      b.append("/>\n");
    } else {
      b.append("><title>").append(esc(title)).append("</title></").append(tag).append(">\n");
    }
  }

  /** A coordinate with at most two decimals ({@code 12}, {@code 12.5}, {@code -0.25}). */
  static String n(double v) {
    long c = Math.round(v * 100);
    long whole = Math.abs(c) / 100;
    long frac = Math.abs(c) % 100;
    String sign = c < 0 ? "-" : "";
    if (frac == 0) {
      return sign + whole;
    }
    return sign + whole + (frac % 10 == 0 ? "." + frac / 10 : frac < 10 ? ".0" + frac : "." + frac);
  }

  /** XML-escapes text and attribute values; characters XML 1.0 forbids become U+FFFD. */
  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&apos;");
        default -> {
          boolean ok =
              c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c != 0xFFFE && c != 0xFFFF);
          b.append(ok ? c : '\uFFFD');
        }
      }
    }
    return b.toString();
  }
}
