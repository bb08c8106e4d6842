package io.fluxdrm.cli;

import io.fluxdrm.rset.Constraint;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fluxdrm R}: the twin of flux-core's {@code flux R} (RFC 20 resource sets).
 *
 * <p>Why one class: each subcommand is a short picocli method over {@code ResourceSet}, and they
 * share the reading of R documents from standard input and the error wording, as {@code flux R}'s
 * one Python module does.
 */
@Command(
    name = "R",
    mixinStandardHelpOptions = true,
    header = "Read, generate, and process RFC 20 Resource Set objects, as 'flux R' does.",
    description = "Commands other than encode read one or more R objects, concatenated, on stdin.",
    subcommands = {
      RCommand.Encode.class,
      RCommand.Decode.class,
      RCommand.Append.class,
      RCommand.Diff.class,
      RCommand.Intersect.class,
      RCommand.Remap.class,
      RCommand.Rerank.class,
      RCommand.Verify.class,
      RCommand.SetProperty.class
    })
final class RCommand {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Shared by the commands that read R on stdin. */
  abstract static class Reader implements Main.UsesStdin {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    private InputStream stdin = System.in;

    @Override
    public void stdin(InputStream in) {
      this.stdin = in;
    }

    /** Every R document on stdin (at least one). */
    List<ResourceSet> read() {
      ResourceSet.Documents docs = ResourceSet.parseAll(stdin, "stdin");
      if (docs.ignored() != null) {
        spec.commandLine()
            .getErr()
            .println(
                spec.qualifiedName() + ": warning: ignoring the rest of stdin " + docs.ignored());
        spec.commandLine().getErr().flush();
      }
      if (docs.sets().isEmpty()) {
        throw new CliError(
            "failed to read an R object from stdin: it holds no JSON document (expected: '{')");
      }
      return docs.sets();
    }

    /**
     * The union of the documents, as flux-core folds them; one document is returned as it is (its
     * times and nslots kept). flux-core cannot combine a target that holds nothing, so neither do
     * we.
     */
    ResourceSet union(List<ResourceSet> docs) {
      ResourceSet acc = docs.get(0);
      for (ResourceSet r : docs.subList(1, docs.size())) {
        refuseEmptyTargets("union", acc, r);
        acc = acc.union(r);
      }
      return acc;
    }

    /** The first document combined with each following one, as flux R's diff and intersect. */
    ResourceSet fold(String op, java.util.function.BinaryOperator<ResourceSet> step) {
      List<ResourceSet> docs = read();
      if (docs.size() < 2) {
        throw new CliError(op + " requires at least 2 resource sets");
      }
      ResourceSet acc = docs.get(0);
      for (ResourceSet r : docs.subList(1, docs.size())) {
        acc = step.apply(acc, r);
      }
      return acc;
    }

    static void refuseEmptyTargets(String op, ResourceSet a, ResourceSet b) {
      if (a.hasEmptyTarget() || b.hasEmptyTarget()) {
        throw new CliError(
            op
                + " ("
                + a.summary()
                + ", "
                + b.summary()
                + ") failed: a rank without resources cannot be combined");
      }
    }

    void print(ResourceSet r) {
      PrintWriter out = spec.commandLine().getOut();
      out.println(r);
      out.flush();
    }
  }

  @Command(
      name = "encode",
      mixinStandardHelpOptions = true,
      description = "Encode RFC 20 R from the given ranks, cores, gpus and hosts.")
  static final class Encode implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(
        names = {"-r", "--ranks"},
        paramLabel = "IDSET",
        description = "Ranks (default: 0, or one per host with --hosts)")
    String ranks;

    @Option(
        names = {"-c", "--cores"},
        paramLabel = "IDS",
        description = "Core ids on each rank (default: 0 when no --gpus)")
    String cores;

    @Option(
        names = {"-g", "--gpus"},
        paramLabel = "IDS",
        description = "GPU ids on each rank")
    String gpus;

    @Option(
        names = {"-H", "--hosts"},
        paramLabel = "HOSTS",
        description = "Host names of the ranks, as a hostlist (default: this host's name)")
    String hosts;

    @Option(
        names = {"-p", "--property"},
        paramLabel = "NAME[:RANKS]",
        description = "Set property NAME on RANKS (default: all ranks); repeatable")
    List<String> properties = new ArrayList<>();

    @Option(
        names = {"-l", "--local"},
        description = "Encode this machine: rank 0 with one core per processor the JVM sees")
    boolean local;

    @Option(
        names = {"-f", "--xml"},
        paramLabel = "FILE",
        description = "hwloc XML input: not supported (fluxdrm reads no hwloc topology)")
    String xml;

    @Override
    public Integer call() {
      String g = gpus == null ? "" : gpus;
      String c = cores == null ? "" : cores;
      if (c.isEmpty() && g.isEmpty()) {
        c = "0";
      } else if (local || xml != null) {
        throw CliError.usage("do not specify --cores or --gpus with --local or --xml");
      }
      if (xml != null) {
        throw new CliError("--xml needs an hwloc topology, which fluxdrm does not read");
      }
      IdSet coreIds = parse("--cores", c);
      IdSet gpuIds = parse("--gpus", g);
      IdSet rankIds;
      Hostlist hostlist;
      if (local) {
        coreIds = IdSet.range(0, Runtime.getRuntime().availableProcessors() - 1);
      }
      if (ranks == null) {
        if (hosts != null) {
          hostlist = hostlist(hosts);
          rankIds = hostlist.isEmpty() ? IdSet.empty() : IdSet.range(0, (int) hostlist.count() - 1);
        } else {
          hostlist = Hostlist.of(localHostname());
          rankIds = IdSet.of(0);
        }
      } else {
        rankIds = parse("--ranks", ranks);
        if (rankIds.count() > ResourceSet.MAX_RANKS) {
          throw CliError.usage(
              "--ranks: "
                  + ranks
                  + " names "
                  + rankIds.count()
                  + " ranks (expected: at most "
                  + ResourceSet.MAX_RANKS
                  + ")");
        }
        if (hosts == null) {
          List<String> names = new ArrayList<>();
          String me = localHostname();
          for (long i = 0; i < rankIds.count(); i++) {
            names.add(me);
          }
          hostlist = Hostlist.of(names);
        } else {
          hostlist = hostlist(hosts);
          if (!rankIds.isEmpty() && hostlist.count() != rankIds.count()) {
            throw CliError.usage(
                "hostname count in '"
                    + hosts
                    + "' does not match nranks ("
                    + rankIds.count()
                    + ")");
          }
          if (rankIds.isEmpty()) {
            hostlist = Hostlist.empty();
          }
        }
      }
      ResourceSet r = ResourceSet.of(rankIds, coreIds, gpuIds, hostlist);
      r = assignProperties(r, properties);
      PrintWriter out = spec.commandLine().getOut();
      out.println(r);
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "decode",
      mixinStandardHelpOptions = true,
      header = "Print the union of the R objects on stdin, or facts about it.",
      description =
          "Filters apply in the order --properties, --include, --exclude; outputs print "
              + "in the order --short, --nodelist, --ranks, --count.")
  static final class Decode extends Reader implements Callable<Integer> {
    @Option(
        names = {"-s", "--short"},
        description = "Print the short form (rank[0-1]/core[0-3])")
    boolean brief;

    @Option(
        names = {"-n", "--nodelist"},
        description = "Print the nodelist")
    boolean nodelist;

    @Option(
        names = {"-r", "--ranks"},
        description = "Print the ranks")
    boolean ranks;

    @Option(
        names = {"-c", "--count"},
        paramLabel = "TYPE",
        description = "Print the count of node, core, gpu (any other type counts 0)")
    String count;

    @Option(
        names = {"-i", "--include"},
        paramLabel = "RANKS",
        description = "Keep only RANKS")
    String include;

    @Option(
        names = {"-x", "--exclude"},
        paramLabel = "RANKS",
        description = "Leave out RANKS")
    String exclude;

    @Option(
        names = {"-p", "--properties"},
        paramLabel = "LIST",
        description = "Keep only ranks with every property in LIST (^NAME: without)")
    String props;

    @Override
    public Integer call() {
      List<ResourceSet> docs = read();
      ResourceSet r = union(docs);
      long coreCounter = coreCounter(docs, r);
      if (props != null) {
        List<String> names = new ArrayList<>();
        for (String t : props.split(",", -1)) {
          if (!t.isEmpty()) {
            names.add(t);
          }
        }
        Constraint c;
        try {
          c =
              Constraint.parse(
                  com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                      .objectNode()
                      .set("properties", stringArray(names)));
        } catch (RsetException e) {
          throw CliError.usage("Invalid property constraint: " + e.getMessage());
        }
        r = r.copyConstraint(c);
        coreCounter = r.count("core");
      }
      if (include != null) {
        r = r.copyRanks(ranksOption("--include", include));
        coreCounter = r.count("core");
      }
      if (exclude != null) {
        r = r.removeRanks(ranksOption("--exclude", exclude));
      }
      PrintWriter out = spec.commandLine().getOut();
      boolean any = brief || nodelist || ranks || count != null;
      if (brief) {
        out.println(r.summary());
      }
      if (nodelist) {
        out.flush();
        out.println(r.isEmpty() ? "" : r.nodelist().toString());
      }
      if (ranks) {
        out.println(r.ranks());
      }
      if (count != null) {
        long n =
            switch (count) {
              case "node" -> r.nnodes();
              case "core" -> coreCounter;
              default -> r.count(count);
            };
        out.println(n);
      }
      if (!any) {
        out.println(r);
      }
      out.flush();
      return 0;
    }

    /**
     * The core count flux-core prints: it keeps a running counter that a union of several documents
     * counts partly twice and that --exclude does not lower (see docs/rset.md).
     */
    private long coreCounter(List<ResourceSet> docs, ResourceSet union) {
      if (docs.size() == 1) {
        return union.count("core");
      }
      ResourceSet p = union(docs.subList(0, docs.size() - 1));
      ResourceSet l = docs.get(docs.size() - 1);
      long overlap = p.diff(l).count("core") - p.removeRanks(l.ranks()).count("core");
      return p.count("core") + overlap + l.count("core");
    }
  }

  @Command(
      name = "append",
      mixinStandardHelpOptions = true,
      description = "Append the R objects on stdin; they must not overlap.")
  static final class Append extends Reader implements Callable<Integer> {
    @Override
    public Integer call() {
      ResourceSet acc = ResourceSet.empty();
      for (ResourceSet r : read()) {
        if (!acc.intersect(r).isEmpty()) {
          throw new CliError("R objects '" + acc.summary() + "' and '" + r.summary() + "' overlap");
        }
        if (r.hasEmptyTarget()) {
          throw new CliError(
              "append of '"
                  + r.summary()
                  + "' failed: a rank without resources cannot be combined");
        }
        acc = acc.append(r);
      }
      print(acc);
      return 0;
    }
  }

  @Command(
      name = "diff",
      mixinStandardHelpOptions = true,
      description = "Print the first R on stdin minus the following ones.")
  static final class Diff extends Reader implements Callable<Integer> {
    @Override
    public Integer call() {
      print(
          fold(
              "diff",
              (acc, r) -> {
                if (acc.hasEmptyTarget()) {
                  refuseEmptyTargets("diff", acc, r);
                }
                return acc.diff(r);
              }));
      return 0;
    }
  }

  @Command(
      name = "intersect",
      mixinStandardHelpOptions = true,
      description = "Print the intersection of the R objects on stdin.")
  static final class Intersect extends Reader implements Callable<Integer> {
    @Override
    public Integer call() {
      print(fold("intersect", ResourceSet::intersect));
      return 0;
    }
  }

  @Command(
      name = "remap",
      mixinStandardHelpOptions = true,
      description = "Renumber ranks (and ids other than GPUs) from 0.")
  static final class Remap extends Reader implements Callable<Integer> {
    @Override
    public Integer call() {
      print(union(read()).remap());
      return 0;
    }
  }

  @Command(
      name = "rerank",
      mixinStandardHelpOptions = true,
      description = "Renumber ranks so that the i-th host of HOSTLIST becomes rank i.")
  static final class Rerank extends Reader implements Callable<Integer> {
    @Parameters(paramLabel = "HOSTLIST", arity = "0..*", description = "Hosts in new rank order")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
      if (args.size() != 1) {
        throw CliError.usage("Must provide a hostlist for re-ranking");
      }
      Hostlist hl = hostlist(args.get(0));
      ResourceSet r = union(read());
      if (!r.hasNodelist()) {
        throw new CliError("cannot re-rank: R has no nodelist");
      }
      print(r.rerank(hl));
      return 0;
    }
  }

  @Command(
      name = "verify",
      mixinStandardHelpOptions = true,
      header = "Verify that the second R on stdin (one rank) has what the first expects of it.",
      description = "Missing resources exit 1; extra resources print a warning and exit 0.")
  static final class Verify extends Reader implements Callable<Integer> {
    @Override
    public Integer call() {
      List<ResourceSet> docs = read();
      if (docs.size() != 2) {
        throw new CliError("verify requires exactly 2 R objects on stdin");
      }
      ResourceSet.Verification v = docs.get(0).verify(docs.get(1));
      if (!v.message().isEmpty()) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": " + v.message());
        err.flush();
      }
      return v.ok() ? 0 : Main.EXIT_ERROR;
    }
  }

  @Command(
      name = "set-property",
      mixinStandardHelpOptions = true,
      description = "Set properties on ranks of the union of the R objects on stdin.")
  static final class SetProperty extends Reader implements Callable<Integer> {
    @Parameters(paramLabel = "PROPERTY[:RANKS]", arity = "0..*", description = "Default: all ranks")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
      print(assignProperties(union(read()), args));
      return 0;
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  static IdSet parse(String option, String text) {
    try {
      return IdSet.parse(text);
    } catch (RsetException e) {
      throw CliError.usage(option + ": " + e.getMessage());
    }
  }

  static IdSet ranksOption(String option, String text) {
    try {
      return IdSet.parse(text);
    } catch (RsetException e) {
      throw CliError.usage("Invalid ranks in " + option + ": " + e.getMessage());
    }
  }

  static Hostlist hostlist(String text) {
    try {
      return Hostlist.parse(text);
    } catch (RsetException e) {
      throw CliError.usage("invalid hostlist '" + text + "': " + e.getMessage());
    }
  }

  private static com.fasterxml.jackson.databind.node.ArrayNode stringArray(List<String> names) {
    com.fasterxml.jackson.databind.node.ArrayNode a =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
    names.forEach(a::add);
    return a;
  }

  /** NAME[:RANKS] arguments in order; a repeated NAME takes the later ranks in its first place. */
  static ResourceSet assignProperties(ResourceSet r, List<String> specs) {
    if (specs.isEmpty()) {
      return r;
    }
    Map<String, String> raw = new LinkedHashMap<>();
    for (String s : specs) {
      int colon = s.indexOf(':');
      raw.put(
          colon < 0 ? s : s.substring(0, colon),
          colon < 0 ? r.ranks().toString() : s.substring(colon + 1));
    }
    Map<String, IdSet> props = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : raw.entrySet()) {
      try {
        props.put(e.getKey(), IdSet.parse(e.getValue()));
      } catch (RsetException x) {
        throw CliError.usage(
            "failed to assign properties: invalid idset '"
                + e.getValue()
                + "' specified for property \""
                + e.getKey()
                + "\"");
      }
    }
    try {
      return r.withProperties(props);
    } catch (RsetException x) {
      throw new CliError("failed to assign properties: " + x.getMessage());
    }
  }

  /** This machine's name as the kernel reports it (what gethostname() returns). */
  static String localHostname() {
    try {
      Path p = Path.of("/proc/sys/kernel/hostname");
      if (Files.isReadable(p)) {
        String h = Files.readString(p, StandardCharsets.UTF_8).strip();
        if (!h.isEmpty()) {
          return h;
        }
      }
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
