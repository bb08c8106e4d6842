package io.fluxdrm.cli;

import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.RsetException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fluxdrm hostlist}: the twin of flux-core's {@code flux hostlist} for literal lists. */
@Command(
    name = "hostlist",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    header = "Combine, transform and print RFC 29 hostlists, as 'flux hostlist' does.",
    description =
        "SOURCES are literal hostlists, or 'stdin' / '-' to read hosts from standard "
            + "input (the default). The default mode appends all sources, keeping duplicates.")
final class HostlistCommand implements Callable<Integer>, Main.UsesStdin {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = {"-e", "--expand"},
      description = "Expand hostlist using defined output delimiter")
  boolean expand;

  @Option(
      names = {"-d", "--delimiter"},
      paramLabel = "S",
      defaultValue = " ",
      description = "Set output delimiter for expanded hostlist (default=' ')")
  String delimiter;

  @Option(
      names = {"-c", "--count"},
      description = "Print the total number of hosts")
  boolean count;

  @Option(
      names = {"-n", "--nth"},
      paramLabel = "[-]IDS",
      description = "Output hosts at indices in idset IDS (-IDS to index from end)")
  String nth;

  @Option(
      names = {"-F", "--find"},
      paramLabel = "HOSTS",
      description = "Output indices of HOSTS in target hostlist; fails if any host is not found")
  String find;

  @Option(
      names = {"-L", "--limit"},
      paramLabel = "N",
      description = "Output at most N hosts (-N for the last N hosts)")
  Integer limit;

  @Option(
      names = {"-S", "--sort"},
      description = "Return sorted result")
  boolean sort;

  @Option(
      names = {"-x", "--exclude"},
      paramLabel = "IDS|HOSTS",
      description =
          "Exclude all occurrences of HOSTS, or the hosts at indices IDS, from the result")
  String exclude;

  @Option(
      names = {"-u", "--union", "--unique"},
      description = "Return only unique hosts (with no other option: the union of all sources)")
  boolean union;

  @Option(
      names = {"-i", "--intersect"},
      description = "Return the intersection of all hostlists")
  boolean intersect;

  @Option(
      names = {"-m", "--minus"},
      description = "Subtract all hostlist args from first argument")
  boolean minus;

  @Option(
      names = {"-X", "--xor"},
      description = "Return the symmetric difference of all hostlists")
  boolean xor;

  @Option(
      names = {"-f", "--fallback"},
      description = "Accepted for compatibility: every source is already a literal hostlist")
  boolean fallback;

  @Option(
      names = {"-l", "--local"},
      description = "Default source 'local': needs a Flux instance, which this command has not")
  boolean local;

  @Option(
      names = {"-q", "--quiet"},
      description = "No output; exit with status 1 if the hostlist is empty")
  boolean quiet;

  @Parameters(paramLabel = "SOURCES", description = "Hostlists, or 'stdin' / '-'")
  List<String> sources = new ArrayList<>();

  private InputStream stdin = System.in;

  @Override
  public void stdin(InputStream in) {
    this.stdin = in;
  }

  @Override
  public Integer call() throws IOException {
    if (expand && count) {
      throw CliError.usage("--expand and --count cannot be used together");
    }
    if ((intersect ? 1 : 0) + (minus ? 1 : 0) + (xor ? 1 : 0) > 1) {
      throw CliError.usage("only one of --intersect, --minus and --xor may be used");
    }
    List<String> srcs = sources;
    if (srcs.isEmpty()) {
      if (local) {
        throw new CliError("source 'local' needs a Flux instance (give hostlists instead)");
      }
      srcs = List.of("stdin");
    }
    List<Hostlist> lists = new ArrayList<>();
    for (String s : srcs) {
      lists.add(resolve(s));
    }

    Hostlist hl = Hostlist.empty();
    if (intersect || minus || xor) {
      hl = lists.get(0);
      for (Hostlist x : lists.subList(1, lists.size())) {
        if (intersect) {
          hl = hl.intersect(x);
        } else if (minus) {
          hl = hl.delete(x);
        } else {
          hl = hl.minus(x).append(x.minus(hl)).uniq();
        }
      }
    } else {
      for (Hostlist x : lists) {
        hl = hl.append(x);
      }
    }
    if (exclude != null) {
      hl = exclude(hl, exclude);
    }
    if (sort) {
      hl = hl.sort();
    }
    if (union) {
      hl = hl.uniq();
    }
    if (limit != null && limit != 0) {
      long n = hl.count();
      if (limit > 0) {
        hl = hl.select(IdSet.range(0, (int) Math.min(n, limit) - 1).intersection(all(n)));
      } else {
        long from = Math.max(0, n + limit);
        hl = n == 0 ? hl : hl.select(all(n).difference(all(from)));
      }
    }
    if (nth != null) {
      hl = nth(hl, nth);
    }

    PrintWriter out = spec.commandLine().getOut();
    if (!quiet) {
      if (find != null) {
        out.println(find(hl, find));
      } else if (count) {
        out.println(hl.count());
      } else if (expand) {
        if (!hl.isEmpty()) {
          out.println(String.join(delimiter.replace("\\n", "\n"), hl.expand()));
        }
      } else if (!hl.isEmpty()) {
        out.println(hl);
      }
      out.flush();
    }
    return quiet && hl.isEmpty() ? Main.EXIT_ERROR : 0;
  }

  private static IdSet all(long n) {
    return n <= 0 ? IdSet.empty() : IdSet.range(0, (int) Math.min(n - 1, IdSet.MAX_ID));
  }

  private Hostlist resolve(String source) throws IOException {
    switch (source) {
      case "stdin":
      case "-":
        return readStdin();
      case "instance":
      case "local":
      case "avail":
      case "available":
        throw new CliError(
            "source '" + source + "' needs a Flux instance (give hostlists instead)");
      default:
        try {
          return Hostlist.parse(source);
        } catch (RsetException e) {
          throw new CliError("Invalid jobid or hostlist " + source + ": " + e.getMessage());
        }
    }
  }

  /**
   * Longest stdin line read, so that a stream without newlines is refused before it fills memory.
   */
  private static final int MAX_LINE = 1 << 20;

  /**
   * Hosts of every stdin line, as flux-core reads them: UTF-8 text, lines ended by LF, CR or CR LF
   * (Python's universal newlines), trailing blanks stripped.
   */
  private Hostlist readStdin() throws IOException {
    byte[] buf = new byte[1 << 16];
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    Hostlist hl = Hostlist.empty();
    int n = 1;
    boolean afterCr = false;
    for (int k = stdin.read(buf); k >= 0; k = stdin.read(buf)) {
      for (int i = 0; i < k; i++) {
        byte c = buf[i];
        if (c == '\n' && afterCr) {
          afterCr = false;
          continue;
        }
        afterCr = c == '\r';
        if (c == '\n' || c == '\r') {
          hl = appendLine(hl, line, n++);
          line.reset();
        } else if (line.size() == MAX_LINE) {
          throw new CliError(
              "stdin line " + n + " is longer than " + MAX_LINE + " bytes (expected: hostlists)");
        } else {
          line.write(c);
        }
      }
    }
    return line.size() == 0 ? hl : appendLine(hl, line, n);
  }

  private static Hostlist appendLine(Hostlist hl, ByteArrayOutputStream bytes, int n) {
    String line;
    try {
      line =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes.toByteArray()))
              .toString();
    } catch (CharacterCodingException e) {
      throw new CliError("stdin line " + n + ": is not UTF-8 text (expected: hostlists)");
    }
    Hostlist more;
    try {
      more = Hostlist.parse(line.stripTrailing());
    } catch (RsetException e) {
      throw new CliError("stdin line " + n + ": " + e.getMessage());
    }
    if (hl.count() + more.count() > Hostlist.EXPANSION_LIMIT) {
      throw new CliError("stdin names more than " + Hostlist.EXPANSION_LIMIT + " hosts");
    }
    return hl.append(more);
  }

  private static Hostlist exclude(Hostlist hl, String arg) {
    Hostlist x;
    try {
      x = Hostlist.parse(arg);
    } catch (RsetException e) {
      throw CliError.usage("--exclude: " + e.getMessage());
    }
    Hostlist left = hl.deleteAll(x);
    if (left.count() != hl.count()) {
      return left;
    }
    // as flux-core: the hosts, sorted as strings and joined with ',', read as an idset (so that
    // "2,10" becomes "10,2" and excludes nothing); hosts other than digits and '-' are no indices
    if (!x.toString().matches("[\\[\\]0-9,-]*")) {
      return hl;
    }
    List<String> names = new ArrayList<>(x.expand());
    Collections.sort(names);
    IdSet indices;
    try {
      indices = IdSet.parse(String.join(",", names));
    } catch (RsetException e) {
      return hl; // neither hosts of the list nor indices: nothing to exclude
    }
    return hl.select(all(hl.count()).difference(indices));
  }

  private static Hostlist nth(Hostlist hl, String arg) {
    boolean fromEnd = arg.startsWith("-");
    IdSet ids;
    try {
      ids = IdSet.parse(fromEnd ? arg.substring(1) : arg);
    } catch (RsetException e) {
      throw CliError.usage("--nth: " + e.getMessage());
    }
    long n = hl.count();
    if (!fromEnd) {
      if (!ids.isEmpty() && ids.last() >= n) {
        throw new CliError(
            "Hostlist index out of range: " + ids.last() + " (hostlist has " + n + ")");
      }
      return hl.select(ids);
    }
    if (!ids.isEmpty() && ids.last() > n) {
      throw new CliError(
          "Hostlist index out of range: -" + ids.last() + " (hostlist has " + n + ")");
    }
    // as flux: hosts taken for the ids in descending order, so that -0 (the first host) comes last
    List<String> hosts = new ArrayList<>();
    for (int x = ids.last(); x >= 0; x = ids.first() == x ? -1 : previous(ids, x)) {
      hosts.add(hl.get(x == 0 ? 0 : n - x));
    }
    return Hostlist.of(hosts);
  }

  private static int previous(IdSet ids, int x) {
    for (int k = ids.rangeCount() - 1; k >= 0; k--) {
      if (ids.rangeLo(k) < x) {
        return Math.min(x - 1, ids.rangeHi(k));
      }
    }
    return -1;
  }

  private static String find(Hostlist hl, String arg) {
    Hostlist hosts;
    try {
      hosts = Hostlist.parse(arg);
    } catch (RsetException e) {
      throw CliError.usage("--find: " + e.getMessage());
    }
    List<String> out = new ArrayList<>();
    for (String h : hosts.expand()) {
      long i = hl.indexOf(h);
      if (i < 0) {
        throw new CliError("host " + h + " not found");
      }
      out.add(Long.toString(i));
    }
    return String.join(" ", out);
  }
}
