package io.fluxdrm.showcase.plot;

import java.awt.AlphaComposite;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.font.TextLayout;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.imageio.ImageIO;

/**
 * A {@link Scene} drawn with Java2D into an RGB image and encoded as PNG by ImageIO. Needs no
 * display: run headless ({@code -Djava.awt.headless=true}, which the command sets).
 */
final class PngWriter {
  private PngWriter() {}

  static BufferedImage draw(Scene s) {
    BufferedImage im = new BufferedImage(s.width(), s.height(), BufferedImage.TYPE_INT_RGB);
    Graphics2D g = im.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, s.width(), s.height());
      for (Scene.Shape shape : s.shapes()) {
        if (shape instanceof Scene.Rect r) {
          Rectangle2D.Double box = new Rectangle2D.Double(r.x(), r.y(), r.w(), r.h());
          g.setComposite(AlphaComposite.getInstance(AlphaComposite.SRC_OVER, (float) r.opacity()));
          g.setColor(colour(r.fill()));
          g.fill(box);
          g.setComposite(AlphaComposite.SrcOver);
          if (r.stroke() != null) {
            g.setStroke(new BasicStroke(1f));
            g.setColor(colour(r.stroke()));
            g.draw(box);
          }
        } else if (shape instanceof Scene.Text t) {
          text(g, t);
        } else if (shape instanceof Scene.Line l) {
          g.setStroke(
              l.dashed()
                  ? new BasicStroke(
                      (float) l.width(),
                      BasicStroke.CAP_BUTT,
                      BasicStroke.JOIN_MITER,
                      10f,
                      new float[] {4f, 3f},
                      0f)
                  : new BasicStroke((float) l.width()));
          g.setColor(colour(l.colour()));
          g.draw(new Line2D.Double(l.x1(), l.y1(), l.x2(), l.y2()));
        } else if (shape instanceof Scene.Poly p) {
          Path2D.Double path = new Path2D.Double();
          double[] xy = p.xy();
          path.moveTo(xy[0], xy[1]);
          for (int i = 2; i + 1 < xy.length; i += 2) {
            path.lineTo(xy[i], xy[i + 1]);
          }
          path.closePath();
          if (p.fill() != null) {
            g.setColor(colour(p.fill()));
            g.fill(path);
          }
          if (p.stroke() != null && p.strokeWidth() > 0) {
            g.setStroke(new BasicStroke((float) p.strokeWidth()));
            g.setColor(colour(p.stroke()));
            g.draw(path);
          }
        }
      }
    } finally {
      g.dispose();
    }
    return im;
  }

  static byte[] write(Scene s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      if (!ImageIO.write(draw(s), "png", out)) {
        throw new IllegalStateException("no PNG writer in this JVM");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static void text(Graphics2D g, Scene.Text t) {
    if (t.text().isEmpty()) {
      return;
    }
    Font f =
        new Font(Font.SANS_SERIF, t.bold() ? Font.BOLD : Font.PLAIN, 1)
            .deriveFont((float) t.size());
    g.setFont(f);
    FontMetrics fm = g.getFontMetrics();
    double w = fm.stringWidth(t.text());
    double x =
        switch (t.anchor()) {
          case MIDDLE -> t.x() - w / 2;
          case END -> t.x() - w;
          default -> t.x();
        };
    if (t.halo()) {
      TextLayout tl = new TextLayout(t.text(), f, g.getFontRenderContext());
      java.awt.Shape outline =
          tl.getOutline(java.awt.geom.AffineTransform.getTranslateInstance(x, t.y()));
      g.setStroke(new BasicStroke(3f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
      g.setColor(Color.WHITE);
      g.draw(outline);
    }
    g.setColor(colour(t.colour()));
    g.drawString(t.text(), (float) x, (float) t.y());
  }

  private static Color colour(String hex) {
    return new Color(Integer.parseInt(hex.substring(1), 16));
  }
}
