package io.fluxdrm.cli;

import io.fluxdrm.dvm.wire.DvmWire;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.AllocTime;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixKey;
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

  static Info time(String spec) {
    try {
      AllocTime.parseSeconds(spec);
    } catch (PmixException e) {
      throw CliError.usage("--time: " + e.getMessage());
    }
    return Info.of(PmixKey.PMIX_ALLOC_TIME, spec);
  }

  /** The common part of each subcommand. */
  abstract static class Op implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Mixin DvmClientOptions options;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id, or 'all'")
    String id;

    /** The directives, after the control id. */
    abstract List<Info> directives();

    @Override
    public Integer call() throws InterruptedException {
      long sid = sessionId(id);
      List<Info> d = new ArrayList<>();
      d.add(Info.of(PmixKey.PMIX_SESSION_CTRL_ID, CTRL_ID));
      d.addAll(directives());
      d.addAll(options.extras());
      return options.run(
          spec.commandLine().getOut(),
          spec.commandLine().getErr(),
          spec.qualifiedName() + ": ",
          sid == DvmWire.UINT32_MAX ? "all sessions" : "session " + sid,
          port -> port.sessionControlRaw(sid, d),
          false);
    }
  }

  /** {@code --inheritance NAME}. */
  static Info inheritance(AllocInheritance i) {
    return Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, i);
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
    List<Info> directives() {
      List<Info> d = new ArrayList<>();
      d.add(Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true));
      if (hosts != null) {
        d.add(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, hosts));
      }
      if (time != null) {
        d.add(time(time));
      }
      if (sep != null) {
        d.add(Info.of(PmixKey.PMIX_SESSION_SEP, sep));
      }
      if (inherit != null) {
        d.add(inheritance(inherit));
      }
      if (!command.isEmpty()) {
        if (np < 1) {
          throw CliError.usage("--np: " + np + " (expected: at least 1)");
        }
        App app = new App(command.get(0), command, np, List.of());
        d.add(Info.of(PmixKey.PMIX_SESSION_APP, List.of(app)));
      }
      return d;
    }
  }

  @Command(name = "pause", mixinStandardHelpOptions = true, description = "SIGSTOP every job.")
  static final class Pause extends Op {
    @Override
    List<Info> directives() {
      return List.of(Info.of(PmixKey.PMIX_SESSION_PAUSE, true));
    }
  }

  @Command(name = "resume", mixinStandardHelpOptions = true, description = "SIGCONT paused jobs.")
  static final class Resume extends Op {
    @Override
    List<Info> directives() {
      return List.of(Info.of(PmixKey.PMIX_SESSION_RESUME, true));
    }
  }

  /** Preempt and restore name jobs with {@code --nspace}. */
  abstract static class Selective extends Op {
    @Option(
        names = "--nspace",
        paramLabel = "NS",
        description = "A job of the session (repeatable; default: every job)")
    List<String> nspaces = new ArrayList<>();

    abstract String key();

    @Override
    List<Info> directives() {
      List<Info> d = new ArrayList<>();
      d.add(Info.of(key(), true));
      nspaces.forEach(ns -> d.add(Info.of(PmixKey.PMIX_NSPACE, ns)));
      return d;
    }
  }

  @Command(
      name = "preempt",
      mixinStandardHelpOptions = true,
      description = "Suspend jobs (SIGSTOP); their resources stay held.")
  static final class Preempt extends Selective {
    @Override
    String key() {
      return PmixKey.PMIX_SESSION_PREEMPT;
    }
  }

  @Command(
      name = "restore",
      mixinStandardHelpOptions = true,
      description = "Continue preempted jobs (SIGCONT).")
  static final class Restore extends Selective {
    @Override
    String key() {
      return PmixKey.PMIX_SESSION_RESTORE;
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
    List<Info> directives() {
      int n;
      if (!signal.matches("-?[0-9]{1,9}")) {
        throw CliError.usage("N: \"" + signal + "\" (expected: a signal number 1 to 64)");
      }
      n = Integer.parseInt(signal);
      List<Info> d = new ArrayList<>();
      // range refusals (n <= 0 BAD_PARAM, PRRTE §7.4.4.2.4 "Signal"; n > 64) are the DVM's to make
      d.add(Info.of(PmixKey.PMIX_SESSION_SIGNAL, n));
      nspaces.forEach(ns -> d.add(Info.of(PmixKey.PMIX_NSPACE, ns)));
      return d;
    }
  }

  @Command(
      name = "terminate",
      mixinStandardHelpOptions = true,
      description = "Kill every job (paused ones continued first); reclaim after the last.")
  static final class Terminate extends Op {
    @Override
    List<Info> directives() {
      return List.of(Info.of(PmixKey.PMIX_SESSION_TERMINATE, true));
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
    List<Info> directives() {
      List<Info> d = new ArrayList<>();
      d.add(Info.of(PmixKey.PMIX_SESSION_EXTEND, true));
      if (hosts != null) {
        d.add(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, hosts));
      }
      if (time != null) {
        d.add(time(time));
      }
      if (inherit != null) {
        d.add(inheritance(inherit));
      }
      return d;
    }
  }
}
