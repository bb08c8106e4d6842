package io.fluxdrm.cli;

import static io.fluxdrm.cli.ReallocClient.TOPIC;
import static io.fluxdrm.cli.ReallocRequests.duration;
import static io.fluxdrm.cli.ReallocRequests.findFlux;
import static io.fluxdrm.cli.ReallocRequests.grant;
import static io.fluxdrm.cli.ReallocRequests.jobId;
import static io.fluxdrm.cli.ReallocRequests.jobR;
import static io.fluxdrm.cli.ReallocRequests.nodeSpec;
import static io.fluxdrm.cli.ReallocRequests.readSpec;
import static io.fluxdrm.cli.ReallocRequests.request;
import static io.fluxdrm.cli.ReallocRequests.specSub;
import static io.fluxdrm.cli.ReallocRequests.submitCompanion;
import static io.fluxdrm.cli.ReallocRequests.successLine;
import static io.fluxdrm.cli.ReallocRequests.uri;
import static io.fluxdrm.cli.ReallocRequests.usage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.ProtocolException;
import io.fluxdrm.protocol.ReallocAnswer;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fluxdrm realloc} (and {@code flux realloc}, through {@code bin/flux-realloc}): RFC 51 as
 * an application sends it, as the job's user, to the job manager of a real Flux instance whose
 * realloc jobtap plugin ({@code flux-plugin/realloc.c}, D470) serves the job manager's side of RFC
 * 51. {@code grow} asks for more nodes (and may run a command on them as a companion job); {@code
 * release} shrinks the job by ranks an earlier grow granted, then hands them back with {@code
 * job-manager.release}. A request still waiting after {@code --timeout}, or when the user presses
 * Ctrl-C, is canceled with {@code job-manager.realloc_cancel} on the same connection, and its
 * CANCEL answer is awaited.
 */
@Command(
    name = "realloc",
    mixinStandardHelpOptions = true,
    header = "Grow or shrink a running job of a Flux instance (RFC 51 realloc).",
    description =
        "The instance is $FLUX_URI (or --uri); its job manager must have the realloc "
            + "jobtap plugin (flux jobtap load realloc.so). Exit status: 0 on SUCCESS; 1 on "
            + "DENY, CANCEL, UNSUPPORTED or an error (one line on stderr); 2 on a usage error; "
            + "130 after Ctrl-C (the waiting request is canceled first).",
    subcommands = {ReallocCommand.Grow.class, ReallocCommand.Release.class})
final class ReallocCommand {
  /** The exit status after Ctrl-C (the JVM's for SIGINT). */
  static final int EXIT_INTERRUPTED = 130;

  // ---- the subcommands ---------------------------------------------------------------------

  /** What grow and release share: the job, the connection, waiting, reporting. */
  abstract static class Op implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(
        index = "0",
        paramLabel = "JOBID",
        description = "The running job (\u0192..., f..., decimal, 0x hex or dotted hex)")
    String jobArg;

    @Option(
        names = "--uri",
        paramLabel = "URI",
        description = "The Flux instance, local://PATH (default: $FLUX_URI)")
    String uriArg;

    @Option(
        names = "--json",
        description = "Print each answer as it came, one JSON object per line")
    boolean json;

    @Option(
        names = "--timeout",
        paramLabel = "DURATION",
        description =
            "Cancel the request if it still waits after DURATION (30s, 5m, 1.5h, 2d; default:"
                + " wait until answered)")
    String timeoutArg;

    long job;
    String uri;
    PrintWriter out;
    PrintWriter err;

    /** Checks the options (usage errors) and reads the files they name, before connecting. */
    abstract void prepare();

    /** The request, maybe after lookups of the job. */
    abstract ObjectNode payload(ReallocClient.Session s) throws InterruptedException;

    /**
     * A SUCCESS: what follows (a shrink's release, a grow's companion) and the output.
     *
     * @param answer the answer as it came, for {@code --json}
     * @param interrupted whether Ctrl-C came before the answer (the cancel was too late)
     * @return the exit status
     */
    abstract int succeeded(ReallocAnswer a, ObjectNode answer, boolean interrupted)
        throws InterruptedException;

    @Override
    public Integer call() throws InterruptedException {
      job = jobId(jobArg);
      Duration timeout = timeoutArg == null ? null : duration(timeoutArg);
      prepare();
      uri = uri(uriArg);
      out = spec.commandLine().getOut();
      err = spec.commandLine().getErr();
      try (ReallocClient.Session s =
          ReallocClient.Session.open(uri, uriArg != null ? "--uri" : "FLUX_URI")) {
        ObjectNode payload = payload(s);
        ReallocClient.Waiter w = s.send(payload, timeout);
        try {
          int status = report(s, w.outcome());
          if (w.lateInterrupt() && status != EXIT_INTERRUPTED) {
            err.println(prefix() + "interrupted after the answer; the command went on to its end");
            return EXIT_INTERRUPTED;
          }
          return status;
        } finally {
          out.flush();
          err.flush();
          w.finish();
        }
      }
    }

    ReallocClient.Session session;

    String prefix() {
      return spec.qualifiedName() + ": ";
    }

    private int report(ReallocClient.Session s, ReallocClient.Outcome o)
        throws InterruptedException {
      session = s;
      ObjectNode r;
      ReallocAnswer a;
      try {
        r = o.answer().json();
        a = ReallocAnswer.fromJson(r);
      } catch (ProtocolException | RpcException | RsetException e) {
        throw new CliError(TOPIC + ": a bad answer: " + Main.firstLine(e.getMessage()));
      }
      if (json && a.type() != ReallocResponseType.SUCCESS) {
        out.println(r.toString());
      }
      int status =
          switch (a.type()) {
            case SUCCESS -> {
              int st = succeeded(a, r, o.interrupted());
              if (o.interrupted()) {
                err.println(
                    prefix() + "interrupted, but the answer came before the cancel (it stands)");
                yield EXIT_INTERRUPTED;
              }
              if (o.timedOut()) {
                err.println(
                    prefix() + "the answer came after the timeout, before the cancel (it stands)");
              }
              yield st;
            }
            case DENY -> {
              err.println(prefix() + "denied: " + (a.note() == null ? "(no note)" : a.note()));
              yield Main.EXIT_ERROR;
            }
            case CANCEL -> {
              if (o.interrupted()) {
                err.println(prefix() + "interrupted: the request was canceled while it waited");
                yield EXIT_INTERRUPTED;
              }
              if (o.timedOut()) {
                err.println(
                    prefix()
                        + "canceled after the timeout of "
                        + timeoutArg
                        + ": the request was still waiting");
              } else {
                err.println(
                    prefix()
                        + "canceled by the job manager"
                        + (a.note() == null ? "" : ": " + a.note()));
              }
              yield Main.EXIT_ERROR;
            }
            case UNSUPPORTED -> {
              err.println(
                  prefix()
                      + "the loaded scheduler does not support RFC 51 realloc (answer"
                      + " UNSUPPORTED; expected: fluxdrm sched in place of sched-simple)");
              yield Main.EXIT_ERROR;
            }
          };
      return o.interrupted() ? EXIT_INTERRUPTED : status;
    }
  }

  @Command(
      name = "grow",
      mixinStandardHelpOptions = true,
      header = "Add resources to job JOBID and print the grant.",
      description =
          "What to add: -N nodes of -c cores each, or the jobspec V1 of --spec FILE "
              + "(YAML or JSON). Prints 'alloc_id=N granted=R hosts=HOSTS'. With '-- "
              + "COMMAND...', then runs COMMAND on the grant as a companion job ('flux submit' "
              + "of the flux on PATH) and prints 'companion=ID'.")
  static final class Grow extends Op {
    @Option(
        names = {"-N", "--nodes"},
        paramLabel = "N",
        description = "Nodes to add")
    Integer nodes;

    @Option(
        names = {"-c", "--cores-per-node"},
        paramLabel = "C",
        description = "Cores on each added node (default 1; with -N)")
    Integer cores;

    @Option(
        names = "--spec",
        paramLabel = "FILE",
        description = "The jobspec V1 to add (YAML or JSON), in place of -N/-c")
    Path specFile;

    @Parameters(
        index = "1..*",
        paramLabel = "COMMAND",
        description = "After '--': a command to run on the granted nodes (a companion job)")
    List<String> command = new ArrayList<>();

    ObjectNode specAdd;
    Path flux;

    @Override
    void prepare() {
      if ((nodes == null) == (specFile == null)) {
        throw usage(
            nodes == null
                ? "missing -N/--nodes or --spec (expected: one of them)"
                : "-N/--nodes and --spec: both given (expected: one of them)");
      }
      if (specFile != null) {
        if (cores != null) {
          throw usage("-c/--cores-per-node: only with -N/--nodes (--spec says its cores)");
        }
        specAdd = readSpec(specFile);
      } else {
        if (nodes < 1) {
          throw usage("-N/--nodes: " + nodes + " (expected: at least 1)");
        }
        int c = cores == null ? 1 : cores;
        if (c < 1) {
          throw usage("-c/--cores-per-node: " + c + " (expected: at least 1)");
        }
        specAdd = nodeSpec(nodes, c, 0);
      }
      if (!command.isEmpty()) {
        flux = findFlux();
      }
    }

    @Override
    ObjectNode payload(ReallocClient.Session s) {
      return request(job, "spec_add", specAdd, null);
    }

    @Override
    int succeeded(ReallocAnswer a, ObjectNode answer, boolean interrupted)
        throws InterruptedException {
      out.println(json ? answer.toString() : successLine(a));
      out.flush();
      if (command.isEmpty() || a.add().isEmpty() || interrupted) {
        return 0;
      }
      String id = submitCompanion(flux, uri, job, a, command);
      out.println(json ? Json.object().put("companion", id).toString() : "companion=" + id);
      return 0;
    }
  }

  @Command(
      name = "release",
      mixinStandardHelpOptions = true,
      header = "Give back ranks of job JOBID that an earlier grow granted.",
      description =
          "What to give back: --ranks IDSET or --hosts HOSTLIST of the job's R, the "
              + "grant of --alloc-id N (its realloc-grow event), or the R of --R FILE. "
              + "Answered once processes on those ranks ended and the resources are free. "
              + "Prints 'alloc_id=N released=R hosts=HOSTS'.")
  static final class Release extends Op {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Which which;

    /** Exactly one of these says what to release. */
    static final class Which {
      @Option(
          names = "--ranks",
          paramLabel = "IDSET",
          description = "These ranks of the job's R (RFC 22 idset)")
      String ranks;

      @Option(
          names = "--hosts",
          paramLabel = "HOSTLIST",
          description = "The ranks of these hosts in the job's R (RFC 29 hostlist)")
      String hosts;

      @Option(
          names = "--alloc-id",
          paramLabel = "N",
          description = "The R_delta_add of the job's realloc-grow event with this alloc_id")
      String allocId;

      @Option(names = "--R", paramLabel = "FILE", description = "This R (RFC 20 JSON)")
      Path rFile;
    }

    IdSet ranks;
    Hostlist hosts;
    long allocId;
    ResourceSet fileR;

    @Override
    void prepare() {
      try {
        if (which.ranks != null) {
          ranks = IdSet.parse(which.ranks);
          if (ranks.isEmpty()) {
            throw usage("--ranks: \"" + which.ranks + "\" is empty (expected: at least one rank)");
          }
        } else if (which.hosts != null) {
          hosts = Hostlist.parse(which.hosts);
          if (hosts.isEmpty()) {
            throw usage("--hosts: \"" + which.hosts + "\" is empty (expected: at least one host)");
          }
        }
      } catch (RsetException e) {
        throw usage((which.ranks != null ? "--ranks: " : "--hosts: ") + e.getMessage());
      }
      if (which.allocId != null) {
        try {
          if (!which.allocId.matches("[0-9]{1,20}")) {
            throw new NumberFormatException();
          }
          allocId = Long.parseUnsignedLong(which.allocId);
        } catch (NumberFormatException e) {
          throw usage(
              "--alloc-id: \""
                  + which.allocId
                  + "\" (expected: a decimal alloc_id, as a grow printed it)");
        }
      }
      if (which.rFile != null) {
        try {
          fileR = ResourceSet.parse(Files.readString(which.rFile, StandardCharsets.UTF_8));
        } catch (IOException | java.io.UncheckedIOException e) {
          throw new CliError(
              "--R: " + which.rFile + ": cannot read: " + Main.firstLine(e.getMessage()));
        } catch (RsetException e) {
          throw new CliError("--R: " + which.rFile + ": " + Main.firstLine(e.getMessage()));
        }
      }
    }

    @Override
    ObjectNode payload(ReallocClient.Session s) throws InterruptedException {
      ResourceSet released;
      if (fileR != null) {
        released = fileR;
      } else if (ranks != null || hosts != null) {
        ResourceSet jobR = jobR(s.lookup(job, "R"));
        IdSet chosen;
        if (ranks != null) {
          IdSet outside = ranks.difference(jobR.ranks());
          if (!outside.isEmpty()) {
            throw new CliError(
                "--ranks: "
                    + outside
                    + " not in the R of job "
                    + JobId.f58(job)
                    + " (it has "
                    + jobR.summary()
                    + ")");
          }
          chosen = ranks;
        } else {
          try {
            chosen = jobR.hostsToRanks(hosts);
          } catch (RsetException e) {
            throw new CliError(
                "--hosts: "
                    + Main.firstLine(e.getMessage())
                    + " in the R of job "
                    + JobId.f58(job)
                    + " (it has "
                    + (jobR.hasNodelist() ? jobR.nodelist().toString() : "no host names")
                    + ")");
          }
        }
        released = jobR.copyRanks(chosen);
      } else {
        released = grant(job, allocId, s.lookup(job, "eventlog"));
      }
      return request(job, "spec_sub", specSub(released), released);
    }

    /**
     * The shrink is granted (the ranks are still the job's, D7): hand them back with {@code
     * job-manager.release}, answered once the processes there ended and the resources are free.
     */
    @Override
    int succeeded(ReallocAnswer a, ObjectNode answer, boolean interrupted)
        throws InterruptedException {
      if (a.sub().isEmpty()) {
        throw new CliError(TOPIC + ": a SUCCESS without R_delta_sub (expected: the shrink)");
      }
      Message released;
      try {
        released = session.release(job, a.sub().ranks());
      } catch (CliError e) {
        throw new CliError(
            e.getMessage()
                + " (the shrink alloc_id="
                + Long.toUnsignedString(a.allocId())
                + " of "
                + a.sub().summary()
                + " was granted; those ranks stay the job's until released)");
      }
      if (json) {
        out.println(answer.toString());
        out.println(released.json().toString());
      } else {
        out.println(successLine(a));
      }
      return 0;
    }
  }
}
