package io.fluxdrm.showcase.plot;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One distinct fill per job: ten hand-picked colours that stay apart on white and under black or
 * white text, then hues spaced by the golden angle with lightness and saturation spread the same
 * way; a colour that rounds to one already given is nudged until it is new, so n jobs always get n
 * fills.
 */
final class JobColours {
  private static final String[] FIRST = {
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"
  };

  private JobColours() {}

  /** {@code n} distinct colours. */
  static List<String> of(int n) {
    List<String> out = new ArrayList<>(n);
    Set<String> used = new HashSet<>();
    for (int i = 0; i < n; i++) {
      String c;
      if (i < FIRST.length) {
        c = FIRST[i];
      } else {
        // golden-ratio sequences spread hue, lightness and saturation independently
        double hue = (i * 137.508) % 360;
        double light = 0.34 + 0.40 * ((i * 0.381966) % 1);
        double sat = 0.45 + 0.45 * ((i * 0.754878) % 1);
        c = hsl(hue, sat, light);
        for (int tries = 1; used.contains(c); tries++) {
          hue = (hue + 0.37) % 360;
          light = 0.30 + ((light - 0.30 + 0.0031 * (tries % 7)) % 0.50);
          c = hsl(hue, sat, light);
        }
      }
      used.add(c);
      out.add(c);
    }
    return out;
  }

  /** Black or white, whichever reads better on {@code fill}. */
  static String textOn(String fill) {
    int r = Integer.parseInt(fill.substring(1, 3), 16);
    int g = Integer.parseInt(fill.substring(3, 5), 16);
    int b = Integer.parseInt(fill.substring(5, 7), 16);
    double lum = (0.299 * r + 0.587 * g + 0.114 * b) / 255;
    return lum > 0.6 ? "#111111" : "#ffffff";
  }

  private static String hsl(double h, double s, double l) {
    double c = (1 - Math.abs(2 * l - 1)) * s;
    double hp = h / 60;
    double x = c * (1 - Math.abs(hp % 2 - 1));
    double[] rgb =
        hp < 1
            ? new double[] {c, x, 0}
            : hp < 2
                ? new double[] {x, c, 0}
                : hp < 3
                    ? new double[] {0, c, x}
                    : hp < 4
                        ? new double[] {0, x, c}
                        : hp < 5 ? new double[] {x, 0, c} : new double[] {c, 0, x};
    double m = l - c / 2;
    return String.format(
        Locale.ROOT,
        "#%02x%02x%02x",
        Math.round((rgb[0] + m) * 255),
        Math.round((rgb[1] + m) * 255),
        Math.round((rgb[2] + m) * 255));
  }
}
