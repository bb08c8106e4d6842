package io.fluxdrm.cli;

import io.fluxdrm.dvm.wire.DvmWire;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.AllocTime;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.request.InfoWriter;
import io.fluxdrm.pmix.request.SessionControl.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fluxdrm sessionctrl}: PMIx session control against a running {@code fluxdrm dvm}, as
 * PRRTE's {@code examples/sessionctrl} does against a running DVM (PRRTE §7.4.4.5 "Trying it out";
 * PRRTE's examples/sessionctrl.c). Each subcommand sends one {@code PMIx_Session_control} with
 * {@code PMIX_SESSION_CTRL_ID="fluxdrm-sessionctrl"}, prints the status by name and the answer's
 * infos, and exits 0 only on {@code PMIX_SUCCESS}.
 */
@Command(
    name = "sessionctrl",
    mixinStandardHelpOptions = true,
    header = "PMIx session control of a running 'fluxdrm dvm' (PRRTE §7.4.4 Session Control).",
    description =
        "ID is a session id (0 to 4294967294) or 'all' (every session you control). "
            + "Prints the PMIx status by name, then the answer's infos (JSON with --json); "
            + "exit status 0 on PMIX_SUCCESS, 1 otherwise (the reason on stderr).",
    subcommands = {
      SessionCtrlCommand.Instantiate.class,
      SessionCtrlCommand.Pause.class,
      SessionCtrlCommand.Resume.class,
      SessionCtrlCommand.Preempt.class,
      SessionCtrlCommand.Restore.class,
      SessionCtrlCommand.Signal.class,
      SessionCtrlCommand.Terminate.class,
      SessionCtrlCommand.Extend.class
    })
final class SessionCtrlCommand {
  /** The {@code PMIX_SESSION_CTRL_ID} every request carries. */
  static final String CTRL_ID = "fluxdrm-sessionctrl";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** {@code ID}: a decimal session id, or {@code all} for UINT32_MAX. */
  static long sessionId(String s) {
    if (s.equals("all")) {
      return DvmWire.UINT32_MAX;
    }
    if (!s.matches("0|[1-9][0-9]{0,9}")) {
      throw CliError.usage("ID: \"" + s + "\" (expected: a session id 0 to 4294967294, or 'all')");
    }
    long v = Long.parseLong(s);
    if (v >= DvmWire.UINT32_MAX) {
      throw CliError.usage("ID: " + s + " (expected: a session id 0 to 4294967294, or 'all')");
    }
    return v;
  }

  /** {@code --time SPEC}, checked: the spec as given, for {@code PMIX_ALLOC_TIME}. */
  static String time(String spec) {
    try {
      AllocTime.parseSeconds(spec);
    } catch (PmixException e) {
      throw CliError.usage("--time: " + e.getMessage());
    }
    return spec;
  }

  /** The common part of each subcommand. */
  abstract static class Op implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Mixin DvmClientOptions options;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id, or 'all'")
    String id;

    /** Writes the directives, after the control id. */
    abstract void directives(InfoWriter d);

    @Override
    public Integer call() throws InterruptedException {
      long sid = sessionId(id);
      InfoWriter w = InfoWriter.create().ctrlId(CTRL_ID);
      directives(w);
      List<Info> d = w.infos(options.extras()).infos();
      return options.run(
          spec.commandLine().getOut(),
          spec.commandLine().getErr(),
          spec.qualifiedName() + ": ",
          sid == DvmWire.UINT32_MAX ? "all sessions" : "session " + sid,
          port -> port.sessionControlRaw(sid, d),
          false);
    }
  }

  /**
   * Writes {@code --hosts}, {@code --time}, {@code --sep} and {@code --inheritance}, each when
   * given, in that order; a time that does not read is a usage error.
   */
  static void resources(
      InfoWriter d, String hosts, String time, AllocInheritance inherit, Boolean sep) {
    if (hosts != null) {
      d.nodeList(hosts);
    }
    if (time != null) {
      d.time(time(time));
    }
    if (sep != null) {
      d.sep(sep);
    }
    if (inherit != null) {
      d.inheritance(inherit);
    }
  }

  /** Writes a {@code PMIX_NSPACE} for each job named. */
  static void nspaces(InfoWriter d, List<String> nspaces) {
    nspaces.forEach(ns -> d.info(Info.of(PmixKey.PMIX_NSPACE, ns)));
  }

  @Command(
      name = "instantiate",
      mixinStandardHelpOptions = true,
      header =
          "Create session ID on --hosts; with '-- CMD ARGS...' also launch CMD there "
              + "(the answer comes once it runs, with its PMIX_NSPACE); without, a standing "
              + "reservation.")
  static final class Instantiate extends Op {
    @Option(
        names = "--hosts",
        paramLabel = "LIST",
        description = "The nodes (PMIX_ALLOC_NODE_LIST, e.g. node1:2,node2)")
    String hosts;

    @Option(
        names = "--time",
        paramLabel = "SPEC",
        description = "Time limit, [[[[months:]days:]hours:]minutes:]seconds (PMIX_ALLOC_TIME)")
    String time;

    @Option(names = "--np", paramLabel = "N", defaultValue = "1", description = "Procs of CMD")
    int np;

    @Option(
        names = "--sep",
        negatable = true,
        description =
            "PMIX_SESSION_SEP: --sep (the default: the session lives on its own) or --no-sep"
                + " (it follows this command's lifetime)")
    Boolean sep;

    @Option(
        names = "--inheritance",
        paramLabel = "NAME",
        description = "What becomes of the nodes at the end: NONE, CHILD, DEFAULT, CHILD_DEFAULT")
    AllocInheritance inherit;

    @Parameters(index = "1..*", paramLabel = "CMD", description = "The command after '--'")
    List<String> command = new ArrayList<>();

    @Override
    void directives(InfoWriter d) {
      d.operation(Operation.INSTANTIATE);
      resources(d, hosts, time, inherit, sep);
      if (!command.isEmpty()) {
        if (np < 1) {
          throw CliError.usage("--np: " + np + " (expected: at least 1)");
        }
        d.apps(List.of(new App(command.get(0), command, np, List.of())));
      }
    }
  }

  @Command(name = "pause", mixinStandardHelpOptions = true, description = "SIGSTOP every job.")
  static final class Pause extends Op {
    @Override
    void directives(InfoWriter d) {
      d.operation(Operation.PAUSE);
    }
  }

  @Command(name = "resume", mixinStandardHelpOptions = true, description = "SIGCONT paused jobs.")
  static final class Resume extends Op {
    @Override
    void directives(InfoWriter d) {
      d.operation(Operation.RESUME);
    }
  }

  /** Preempt and restore name jobs with {@code --nspace}. */
  abstract static class Selective extends Op {
    @Option(
        names = "--nspace",
        paramLabel = "NS",
        description = "A job of the session (repeatable; default: every job)")
    List<String> nspaces = new ArrayList<>();

    abstract Operation operation();

    @Override
    void directives(InfoWriter d) {
      d.operation(operation());
      nspaces(d, nspaces);
    }
  }

  @Command(
      name = "preempt",
      mixinStandardHelpOptions = true,
      description = "Suspend jobs (SIGSTOP); their resources stay held.")
  static final class Preempt extends Selective {
    @Override
    Operation operation() {
      return Operation.PREEMPT;
    }
  }

  @Command(
      name = "restore",
      mixinStandardHelpOptions = true,
      description = "Continue preempted jobs (SIGCONT).")
  static final class Restore extends Selective {
    @Override
    Operation operation() {
      return Operation.RESTORE;
    }
  }

  @Command(
      name = "signal",
      mixinStandardHelpOptions = true,
      description = "Send signal N to every job (or the --nspace ones).")
  static final class Signal extends Op {
    @Parameters(index = "1", paramLabel = "N", description = "The signal number, 1 to 64")
    String signal;

    @Option(names = "--nspace", paramLabel = "NS", description = "A job of the session")
    List<String> nspaces = new ArrayList<>();

    @Override
    void directives(InfoWriter d) {
      int n;
      if (!signal.matches("-?[0-9]{1,9}")) {
        throw CliError.usage("N: \"" + signal + "\" (expected: a signal number 1 to 64)");
      }
      n = Integer.parseInt(signal);
      // range refusals (n <= 0 BAD_PARAM, PRRTE §7.4.4.2.4 "Signal"; n > 64) are the DVM's to make
      d.signal(n);
      nspaces(d, nspaces);
    }
  }

  @Command(
      name = "terminate",
      mixinStandardHelpOptions = true,
      description = "Kill every job (paused ones continued first); reclaim after the last.")
  static final class Terminate extends Op {
    @Override
    void directives(InfoWriter d) {
      d.operation(Operation.TERMINATE);
    }
  }

  @Command(
      name = "extend",
      mixinStandardHelpOptions = true,
      description = "Add nodes, re-arm the time limit ('0' disarms), or change the inheritance.")
  static final class Extend extends Op {
    @Option(names = "--hosts", paramLabel = "LIST", description = "Nodes to add")
    String hosts;

    @Option(names = "--time", paramLabel = "SPEC", description = "The new time limit")
    String time;

    @Option(names = "--inheritance", paramLabel = "NAME", description = "The new inheritance")
    AllocInheritance inherit;

    @Override
    void directives(InfoWriter d) {
      d.operation(Operation.EXTEND);
      resources(d, hosts, time, inherit, null);
    }
  }
}
