package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code fluxdrm plot}: the pictures it writes, and its errors with their exit statuses. */
class PlotCommandTest {
  static final String DEMO = "../showcase/src/test/resources/io/fluxdrm/showcase/plot/demo.jsonl";

  @Test
  void plot_aNameOfAnotherFormat_usageErrorNothingWritten(@TempDir Path dir) {
    Path gif = dir.resolve("one.gif");
    CliRun r = CliRun.run("", "plot", DEMO, "-o", gif.toString());
    assertThat(r.status()).as("%s", r).isEqualTo(2);
    assertThat(r.err().strip())
        .isEqualTo(
            CliRun.usageLine(
                "fluxdrm plot: -o: "
                    + gif
                    + ": a .gif picture (expected: FILE.svg or FILE.png, or --format svg|png)"));
    assertThat(gif).doesNotExist();
    Path jpg = dir.resolve("demo.jpg");
    CliRun d =
        CliRun.run(
            "", "demo", "--state-dir", dir.resolve("s").toString(), "--picture", jpg.toString());
    assertThat(d.status()).as("%s", d).isEqualTo(2);
    assertThat(d.err()).contains("--picture: " + jpg + ": a .jpg picture");
    assertThat(jpg).doesNotExist();
  }

  @Test
  void plot_svgAndPng_written(@TempDir Path dir) throws Exception {
    Path svg = dir.resolve("a.svg");
    CliRun r = CliRun.run("", "plot", DEMO, "-o", svg.toString());
    assertThat(r.status()).as("%s", r).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo("fluxdrm plot: " + svg + " written: 16 nodes, 2 jobs, 15 marks\n");
    assertThat(Files.readString(svg))
        .startsWith("<?xml")
        .contains("<svg xmlns=\"http://www.w3.org/2000/svg\"");
    Path png = dir.resolve("a.png");
    r = CliRun.run("", "plot", DEMO, "-o", png.toString(), "--width", "800", "--height", "400");
    assertThat(r.status()).as("%s", r).isZero();
    BufferedImage im = ImageIO.read(png.toFile());
    assertThat(im.getWidth()).isEqualTo(800);
    assertThat(im.getHeight()).isEqualTo(400);
    Path forced = dir.resolve("picture");
    r = CliRun.run("", "plot", DEMO, "-o", forced.toString(), "--format", "png");
    assertThat(r.status()).isZero();
    assertThat(ImageIO.read(forced.toFile())).isNotNull();
  }

  @Test
  void plot_dashOutput_svgOnStdout() {
    CliRun r = CliRun.run("", "plot", DEMO, "-o", "-", "--title", "the demo");
    assertThat(r.status()).isZero();
    assertThat(r.out())
        .startsWith("<?xml")
        .contains(">Allocation over time: the demo</text>")
        .endsWith("</svg>\n");
    assertThat(r.err()).isEmpty();
  }

  /** PATH stands for the file as given; the transcript reader names a bad line by file name. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          missing file      | missing.jsonl | | PATH: no such file
          empty             | empty.jsonl   | | PATH: empty (expected: one JSON transcript line or more)
          blank lines only  | blank.jsonl   | '\\n\\n' | PATH: empty (expected: one JSON transcript line or more)
          bad JSON line 2   | bad.jsonl     | '{"time":"2026-01-01T00:00:00Z","direction":"in","type":"event","flags":1,"topic":"x","matchtag":0,"sequence":0,"userid":0,"rolemask":1}\\n{oops' | bad.jsonl:2: invalid JSON at column 2 (expected: one JSON object per line)
          bad field         | field.jsonl   | '{"time":"yesterday"}' | field.jsonl:1: /time: yesterday (expected: RFC 3339 UTC time)
          nothing to draw   | other.jsonl   | '{"time":"2026-01-01T00:00:00Z","direction":"in","type":"event","flags":1,"topic":"x","matchtag":0,"sequence":0,"userid":0,"rolemask":1}' | PATH: 1 line(s), none about allocations (expected: sched.alloc, sched.realloc, sched.free, job-manager.realloc or dvm.* traffic)
          """)
  void plot_badTranscript_exit1_whereAndWhy(
      String name, String file, String content, String message, @TempDir Path dir)
      throws Exception {
    Path f = dir.resolve(file);
    if (!file.startsWith("missing")) {
      Files.writeString(f, content == null ? "" : content.replace("\\n", "\n"));
    }
    Path out = dir.resolve("out.svg");
    CliRun r = CliRun.run("", "plot", f.toString(), "-o", out.toString());
    assertThat(r.status()).as("%s", r).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("fluxdrm plot: " + message.replace("PATH", f.toString()) + "\n");
    assertThat(out).doesNotExist();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          no -o                 | plot DEMO                                 | -o: missing (expected: FILE.svg, FILE.png or -)
          width too small       | plot DEMO -o x.svg --width 10             | --width: 10 (expected: 480 to 16384)
          height too large      | plot DEMO -o x.svg --height 99999         | --height: 99999 (expected: 0 for automatic, or 200 to 16384)
          png to stdout         | plot DEMO -o - --format png               | --format png: not to stdout (expected: -o FILE.png)
          no transcript         | plot -o x.svg                             | TRANSCRIPT: missing (expected: a transcript file, or --live)
          live options alone    | plot DEMO -o x.svg --for 3s               | --connect, --for and --columns go with --live only
          live with a file      | plot DEMO --live --connect unix:/tmp/x    | --live: draws in the terminal (expected: no TRANSCRIPT, -o nor --format)
          live without connect  | plot --live                               | --connect: missing (expected: unix:DIR, local://PATH or tcp://127.0.0.1:PORT)
          live bad connect      | plot --live --connect tcp://10.0.0.1:5    | --connect: "tcp://10.0.0.1:5" (expected: unix:DIR, local://PATH or tcp://127.0.0.1:PORT)
          live bad duration     | plot --live --connect unix:/tmp/x --for 3x | --for: "3x" (expected: a positive duration such as 30s, 500ms, 2m or 1h)
          bad format            | plot DEMO -o x --format gif               | Invalid value for option '--format': expected one of [svg, png] (case-insensitive) but was 'gif' (see 'fluxdrm plot --help')
          """)
  void plot_usageError_exit2(String name, String line, String message) {
    CliRun r = CliRun.run("", CliRun.words(line.strip().replace("DEMO", DEMO)));
    assertThat(r.status()).as("%s", r).isEqualTo(2);
    assertThat(r.err()).isEqualTo(CliRun.usageLine("fluxdrm plot: " + message) + "\n");
  }

  @Test
  void plot_outputDirectoryMissing_exit1(@TempDir Path dir) {
    Path out = dir.resolve("no/such/dir/a.svg");
    CliRun r = CliRun.run("", "plot", DEMO, "-o", out.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("fluxdrm plot: -o: " + out + ": no such directory\n");
  }

  @Test
  void durations() {
    assertThat(PlotCommand.duration("500ms")).hasMillis(500);
    assertThat(PlotCommand.duration("30s")).hasSeconds(30);
    assertThat(PlotCommand.duration("2m")).hasMinutes(2);
    assertThat(PlotCommand.duration("7")).hasSeconds(7);
  }
}
