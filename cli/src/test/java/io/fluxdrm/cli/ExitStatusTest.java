package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The exit-status rule of docs/cli.md ("Exit status", decision D484) for every command: 0 success,
 * 1 an error, 2 a usage error (one line on stderr naming the fault and the help to read, nothing on
 * stdout, nothing run). The commands come from picocli's model, so a new command is covered without
 * being listed; the table below holds the cases whose status was not the rule's once.
 */
class ExitStatusTest {

  static final int ERROR = 1;
  static final int USAGE = 2;

  /** Every command and subcommand of {@code fluxdrm}, root first, as its words after the name. */
  static List<List<String>> commands() {
    List<List<String>> out = new ArrayList<>();
    walk(Main.commandLine(InputStream.nullInputStream()).getCommandSpec(), List.of(), out);
    return out;
  }

  private static void walk(CommandSpec spec, List<String> path, List<List<String>> out) {
    out.add(path);
    List<CommandLine> seen = new ArrayList<>();
    for (CommandLine sub : spec.subcommands().values()) {
      if (seen.stream().noneMatch(c -> c == sub)) {
        seen.add(sub);
        List<String> p = new ArrayList<>(path);
        p.add(sub.getCommandName());
        walk(sub.getCommandSpec(), p, out);
      }
    }
  }

  private static CommandSpec spec(List<String> path) {
    CommandSpec s = Main.commandLine(InputStream.nullInputStream()).getCommandSpec();
    for (String w : path) {
      s = s.subcommands().get(w).getCommandSpec();
    }
    return s;
  }

  /**
   * Whether a command cannot run without arguments: a group (its subcommand is required), or a
   * command with a required option or parameter in picocli's model.
   */
  private static boolean needsArguments(CommandSpec s) {
    return !s.subcommands().isEmpty() || requiresArguments(s);
  }

  private static boolean requiresArguments(CommandSpec s) {
    return s.options().stream().anyMatch(o -> o.required())
        || s.positionalParameters().stream().anyMatch(p -> p.arity().min() > 0);
  }

  private static String name(List<String> path) {
    return String.join(" ", path).isEmpty() ? "fluxdrm" : "fluxdrm " + String.join(" ", path);
  }

  private static String[] args(List<String> path, String... more) {
    List<String> a = new ArrayList<>(path);
    a.addAll(Arrays.asList(more));
    return a.toArray(String[]::new);
  }

  /**
   * A usage error: status 2, one stderr line naming the command and, last, the help to read ({@code
   * (see 'fluxdrm CMD --help')}, or a list of the names), empty stdout.
   */
  static void assertUsage(CliRun run, String command, String substring) {
    assertThat(run.status()).as("status of %s", run).isEqualTo(USAGE);
    assertThat(run.out()).as("stdout of %s", run).isEmpty();
    assertThat(CliRun.lines(run.err())).as("stderr of %s", run).hasSize(1);
    assertThat(run.err())
        .as("stderr of %s", run)
        .startsWith(command + ": ")
        .contains(substring)
        .containsPattern("\\(see '[^']+'[^)]*\\)\n$");
    run.assertNoTrace();
  }

  @TestFactory
  Stream<DynamicTest> unknownOption_everyCommand_usageError() {
    return commands().stream()
        .map(
            path ->
                DynamicTest.dynamicTest(
                    name(path),
                    () ->
                        assertUsage(
                            CliRun.run("", args(path, "--no-such-option")),
                            name(path),
                            // picocli names a missing required argument first
                            requiresArguments(spec(path)) ? "" : "--no-such-option")));
  }

  @TestFactory
  Stream<DynamicTest> noArguments_commandThatNeedsThem_usageError() {
    return commands().stream()
        .filter(path -> needsArguments(spec(path)))
        .map(
            path ->
                DynamicTest.dynamicTest(
                    name(path), () -> assertUsage(CliRun.run("", args(path)), name(path), "")));
  }

  @TestFactory
  Stream<DynamicTest> commandTree_coversEveryTopLevelCommand() {
    // a guard on the walk itself: the table of docs/cli.md has 15 top-level commands
    List<List<String>> all = commands();
    return Stream.of(
        DynamicTest.dynamicTest(
            "walk",
            () -> {
              assertThat(all.stream().filter(p -> p.size() == 1).count()).isEqualTo(15);
              assertThat(all).contains(List.of("R", "encode"), List.of("alloc", "new"));
            }));
  }

  /** One run whose status once differed from the rule: args (space-separated), status, stderr. */
  record Case(String name, String args, int status, String err) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case usage(String name, String args, String err) {
    return new Case(name, args, USAGE, err);
  }

  static Case error(String name, String args, String err) {
    return new Case(name, args, ERROR, err);
  }

  /**
   * DIR stands for a fresh directory, FILE for a file in it that exists, NOPE for one that does
   * not.
   */
  static Stream<Case> cases() {
    return Stream.of(
        // a missing input file is an error of input, whatever the command
        error("replay_missingTranscript_error", "replay NOPE --service sched", "NOPE"),
        error("plot_missingTranscript_error", "plot NOPE -o DIR/p.svg", "NOPE"),
        error("jobspec_missingFile_error", "jobspec counts NOPE", "NOPE"),
        error("schema_missingFile_error", "schema validate rv1 NOPE", "NOPE"),
        error("sched_missingResources_error", "sched --listen unix:DIR --resources NOPE", "NOPE"),
        usage("replay_unknownService_usage", "replay NOPE --service nosuch", "nosuch"),
        // groups without their subcommand
        usage("R_noSubcommand_usage", "R", "subcommand"),
        usage("alloc_noSubcommand_usage", "alloc", "subcommand"),
        usage("sessionctrl_noSubcommand_usage", "sessionctrl", "subcommand"),
        // the parser's rejections in the commands that exited 1
        usage("sched_unknownOption_usage", "sched --bogus", "--bogus"),
        usage("dvm_unknownOption_usage", "dvm --bogus", "--bogus"),
        usage("alloc_badTimeout_usage", "alloc new --timeout soon", "--timeout"),
        usage("R_encodeUnknownOption_usage", "R encode --bogus", "--bogus"),
        usage("keygen_noPath_usage", "keygen", "PATH"),
        usage("keygen_twoPaths_usage", "keygen DIR/a DIR/b", "DIR/b"),
        // the commands' own checks of their command line, before anything starts
        usage("sched_noListen_usage", "sched --hosts n0 --cores 0", "--listen"),
        usage("sched_badListen_usage", "sched --listen nowhere --hosts n0 --cores 0", "--listen"),
        usage(
            "sched_resourcesAndHosts_usage",
            "sched --listen unix:DIR --resources FILE --hosts n0 --cores 0",
            "--resources"),
        usage("sched_noPool_usage", "sched --listen unix:DIR", "pool"),
        usage("sched_badHosts_usage", "sched --listen unix:DIR --hosts n[ --cores 0", "--hosts"),
        usage(
            "sched_curveCertAlone_usage",
            "sched --listen tcp://127.0.0.1:0 --curve-cert FILE --hosts n0 --cores 0",
            "--curve-cert"),
        usage(
            "sched_loopbackRoleOnUnix_usage",
            "sched --listen unix:DIR --tcp-loopback-role owner --hosts n0 --cores 0",
            "--tcp-loopback-role"),
        usage(
            "sched_fluxUriWithHosts_usage", "sched --flux-uri local://NOPE --hosts n0", "--hosts"),
        usage("dvm_badListen_usage", "dvm --hosts n0 --listen nowhere", "--listen"),
        usage("dvm_badHosts_usage", "dvm --hosts n[", "--hosts"),
        usage("dvm_hostTwice_usage", "dvm --hosts n0,n0", "twice"),
        usage("dvm_zeroSlots_usage", "dvm --hosts n0 --slots 0", "--slots"),
        usage(
            "dvm_negativeLatency_usage", "dvm --hosts n0 --daemon-latency -1", "--daemon-latency"),
        usage(
            "dvm_failDaemonsNotSimulated_usage", "dvm --hosts n0 --fail-daemons n0", "--simulated"),
        usage(
            "dvm_loopbackRoleOnUnix_usage",
            "dvm --hosts n0 --listen unix:DIR --tcp-loopback-role owner",
            "--tcp-loopback-role"),
        usage("alloc_badTime_usage", "alloc new --connect unix:DIR --time soon", "--time"),
        usage("alloc_badInfo_usage", "alloc new --connect unix:DIR --info nojson", "--info"),
        usage("alloc_badConnect_usage", "alloc new --connect nowhere", "--connect"),
        usage("alloc_cancelWithoutReqId_usage", "alloc cancel --connect unix:DIR", "--req-id"),
        usage("alloc_activateWithoutHost_usage", "alloc activate --connect unix:DIR", "--host"),
        usage("sessionctrl_badId_usage", "sessionctrl pause x --connect unix:DIR", "ID"),
        usage("sessionctrl_badSignal_usage", "sessionctrl signal 1 x --connect unix:DIR", "N"),
        usage("R_encodeBadRanks_usage", "R encode -r 3,2 -H a,b", "--ranks"),
        usage("R_encodeLocalWithCores_usage", "R encode -l -c 1", "--local"),
        usage("R_encodeHostCountMismatch_usage", "R encode -r 0-3 -H n[0-2]", "hostname count"),
        usage("R_rerankNoHostlist_usage", "R rerank", "hostlist"),
        usage("keygen_badName_usage", "keygen --name ~~~ DIR/k.cert", "--name"),
        usage("jobspec_streamWithFile_usage", "jobspec validate --stream FILE", "--stream"),
        usage(
            "jobspec_pluginsWithoutStream_usage",
            "jobspec validate --plugins jobspec",
            "--plugins"),
        usage("schema_unknownName_usage", "schema validate nosuch FILE", "nosuch"),
        usage("hostlist_expandAndCount_usage", "hostlist -e -c n1", "--count"),
        usage("plot_noOutput_usage", "plot FILE", "-o"),
        usage("demo_crashWithoutProcesses_usage", "demo --crash", "--crash"),
        usage("bridge_noStateDir_usage", "bridge --connect unix:DIR", "--state-dir"),
        // what a command line names that is not as it must be: an error, not a usage error
        error("bridge_stateDirIsFile_error", "bridge --connect unix:DIR --state-dir FILE", "FILE"),
        error("demo_stateDirIsFile_error", "demo --state-dir FILE", "FILE"),
        error("demo_pictureDirMissing_error", "demo --picture NOPE/p.svg", "NOPE"),
        error("keygen_pathExists_error", "keygen FILE", "exists"),
        error("alloc_noDvm_error", "alloc new --connect unix:DIR --timeout 2", "DIR"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void command_case_statusByTheRule(Case c, @TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "{}\n", StandardCharsets.UTF_8);
    String line =
        c.args()
            .replace("NOPE", dir.resolve("nope").toString())
            .replace("FILE", file.toString())
            .replace("DIR", dir.toString());
    String err =
        c.err()
            .replace("NOPE", dir.resolve("nope").toString())
            .replace("FILE", file.toString())
            .replace("DIR", dir.toString());
    CliRun run = CliRun.run("", CliRun.words(line));
    String command = spec(commandWords(line)).qualifiedName();
    if (c.status() == USAGE) {
      assertUsage(run, command, err);
    } else {
      assertThat(run.out()).as("stdout of %s", run).isEmpty();
      run.assertOneLineError(err, ERROR);
    }
  }

  /** The words of a command line that name its command. */
  private static List<String> commandWords(String line) {
    List<String> path = new ArrayList<>();
    CommandSpec s = Main.commandLine(InputStream.nullInputStream()).getCommandSpec();
    for (String w : CliRun.words(line)) {
      CommandLine sub = s.subcommands().get(w);
      if (sub == null) {
        break;
      }
      path.add(w);
      s = sub.getCommandSpec();
    }
    return path;
  }
}
