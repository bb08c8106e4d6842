package io.fluxdrm.cli;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.request.InfoWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fluxdrm alloc}: {@code PMIx_Allocation_request} against a running {@code fluxdrm dvm}
 * (PRRTE §7.4.3 Flow-of-Control and PR #1904), one subcommand per directive, as PRRTE's {@code
 * examples/elastic} and its dockerswarm copy. Prints the status by name and the answer's infos;
 * exits 0 only on {@code PMIX_SUCCESS}.
 */
@Command(
    name = "alloc",
    mixinStandardHelpOptions = true,
    header =
        "PMIx allocation requests to a running 'fluxdrm dvm' (PRRTE §7.4.3 Flow-of-Control and PR #1904).",
    description =
        "Prints the PMIx status by name, then the answer's infos (JSON with --json); "
            + "with --wait, then the second-phase event as it arrives ('event "
            + "PMIX_DVM_IS_READY'); exit status 0 on PMIX_SUCCESS (with --wait: "
            + "PMIX_DVM_IS_READY), 1 otherwise (the reason on stderr).",
    subcommands = {
      AllocCommand.New.class,
      AllocCommand.Extend.class,
      AllocCommand.Release.class,
      AllocCommand.Cancel.class,
      AllocCommand.Activate.class
    })
final class AllocCommand {

  /** The common part of each subcommand. */
  abstract static class Op implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Mixin DvmClientOptions options;

    @Option(
        names = "--req-id",
        paramLabel = "ID",
        description = "PMIX_ALLOC_REQ_ID: the request's own name")
    String reqId;

    @Option(
        names = "--wait",
        description =
            "After the answer, wait for the elastic DVM's second-phase event"
                + " (PMIX_DVM_IS_READY or PMIX_ERR_DVM_MOD) and print it as it arrives; exit 0"
                + " only on PMIX_DVM_IS_READY")
    boolean waitReady;

    abstract AllocDirective directive();

    /** Writes the directive's infos, before the request id. */
    abstract void infos(InfoWriter w);

    @Override
    public Integer call() throws InterruptedException {
      InfoWriter w = InfoWriter.create();
      infos(w);
      List<Info> i = w.reqId(Optional.ofNullable(reqId)).infos(options.extras()).infos();
      return options.run(
          spec.commandLine().getOut(),
          spec.commandLine().getErr(),
          spec.qualifiedName() + ": ",
          directive().pmixName(),
          port -> port.allocationRequestRaw(directive(), i),
          waitReady);
    }
  }

  /** Node list, count, time, inheritance: what NEW and EXTEND may carry. */
  abstract static class Grow extends Op {
    @Option(
        names = "--hosts",
        paramLabel = "LIST",
        description = "PMIX_ALLOC_NODE_LIST, e.g. n2:2,n3:2")
    String hosts;

    @Option(names = "--num-nodes", paramLabel = "N", description = "PMIX_ALLOC_NUM_NODES")
    Long numNodes;

    @Option(names = "--time", paramLabel = "SPEC", description = "PMIX_ALLOC_TIME")
    String time;

    @Option(
        names = "--inheritance",
        paramLabel = "NAME",
        description = "PMIX_ALLOC_INHERITANCE: NONE, CHILD, DEFAULT, CHILD_DEFAULT")
    AllocInheritance inherit;

    void common(InfoWriter w) {
      if (hosts != null) {
        w.nodeList(hosts);
      }
      if (numNodes != null) {
        w.numNodes(numNodes);
      }
      if (time != null) {
        w.time(SessionCtrlCommand.time(time));
      }
      if (inherit != null) {
        w.inheritance(inherit);
      }
    }
  }

  @Command(
      name = "new",
      mixinStandardHelpOptions = true,
      description = "PMIX_ALLOC_NEW: a new reservation (or, with --share, nodes for the pool).")
  static final class New extends Grow {
    @Option(names = "--share", description = "PMIX_ALLOC_SHARE: into the unreserved pool")
    boolean share;

    @Option(names = "--target", paramLabel = "NSPACE", description = "PMIX_ALLOC_TARGET")
    String target;

    @Override
    AllocDirective directive() {
      return AllocDirective.NEW;
    }

    @Override
    void infos(InfoWriter w) {
      common(w);
      if (share) {
        w.share(true);
      }
      if (target != null) {
        w.target(target);
      }
    }
  }

  @Command(
      name = "extend",
      mixinStandardHelpOptions = true,
      description = "PMIX_ALLOC_EXTEND of the reservation --alloc-id.")
  static final class Extend extends Grow {
    @Option(names = "--alloc-id", paramLabel = "ID", description = "PMIX_ALLOC_ID")
    String allocId;

    @Override
    AllocDirective directive() {
      return AllocDirective.EXTEND;
    }

    @Override
    void infos(InfoWriter w) {
      common(w);
      if (allocId != null) {
        w.allocId(allocId);
      }
    }
  }

  @Command(
      name = "release",
      mixinStandardHelpOptions = true,
      description = "PMIX_ALLOC_RELEASE of a whole reservation (--alloc-id) or of nodes (--hosts).")
  static final class Release extends Op {
    @Option(names = "--alloc-id", paramLabel = "ID", description = "PMIX_ALLOC_ID")
    String allocId;

    @Option(names = "--hosts", paramLabel = "LIST", description = "PMIX_ALLOC_NODE_LIST")
    String hosts;

    @Override
    AllocDirective directive() {
      return AllocDirective.RELEASE;
    }

    @Override
    void infos(InfoWriter w) {
      if (allocId != null) {
        w.allocId(allocId);
      }
      if (hosts != null) {
        w.nodeList(hosts);
      }
    }
  }

  @Command(
      name = "cancel",
      mixinStandardHelpOptions = true,
      description = "PMIX_ALLOC_REQ_CANCEL of the pending request --req-id.")
  static final class Cancel extends Op {
    @Override
    AllocDirective directive() {
      return AllocDirective.REQ_CANCEL;
    }

    @Override
    void infos(InfoWriter w) {
      if (reqId == null) {
        throw CliError.usage("--req-id: missing (expected: the id of the request to cancel)");
      }
    }
  }

  @Command(
      name = "activate",
      mixinStandardHelpOptions = true,
      header =
          "PMIX_ALLOC_ACTIVATE: daemons on nodes you already hold (answered by the DVM "
              + "itself); --host in the syntax of PRRTE's --activate (names, +all, +n<K>), "
              + "--hostfile FILE.")
  static final class Activate extends Op {
    @Option(names = "--host", paramLabel = "SPEC", description = "PMIX_HOST")
    String host;

    @Option(names = "--hostfile", paramLabel = "FILE", description = "PMIX_HOSTFILE")
    String hostfile;

    @Override
    AllocDirective directive() {
      return AllocDirective.ACTIVATE;
    }

    @Override
    void infos(InfoWriter w) {
      if (host == null && hostfile == null) {
        throw CliError.usage("--host: missing (expected: --host SPEC and/or --hostfile FILE)");
      }
      if (host != null) {
        w.info(Info.of(PmixKey.PMIX_HOST, host));
      }
      if (hostfile != null) {
        w.info(Info.of(PmixKey.PMIX_HOSTFILE, hostfile));
      }
    }
  }
}
