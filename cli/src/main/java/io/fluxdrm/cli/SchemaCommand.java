package io.fluxdrm.cli;

import io.fluxdrm.jobspec.JobspecValidator;
import io.fluxdrm.jobspec.Report;
import io.fluxdrm.schemas.SchemaException;
import io.fluxdrm.schemas.Schemas;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fluxdrm schema}: the JSON Schemas of the documents and payloads fluxdrm accepts. */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    description = "List the JSON Schemas fluxdrm ships, or validate a document against one.",
    subcommands = {SchemaCommand.ListNames.class, SchemaCommand.Validate.class})
final class SchemaCommand {

  @Command(name = "list", mixinStandardHelpOptions = true, description = "Print every schema name.")
  static final class ListNames implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      Schemas.names().forEach(out::println);
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "validate",
      mixinStandardHelpOptions = true,
      header =
          "Validate a JSON or YAML document against the schema NAME (see 'fluxdrm schema list').",
      description =
          "Prints 'FILE: ok' or one 'FILE: POINTER: MESSAGE' line per violation; exit "
              + "status 0 when valid, 1 otherwise.")
  static final class Validate implements Callable<Integer>, Main.UsesStdin {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--json", description = "One JSON object: {\"file\",\"errnum\"[,\"errstr\"]}")
    boolean json;

    @Parameters(index = "0", paramLabel = "NAME", description = "Schema name")
    String name;

    @Parameters(index = "1", paramLabel = "FILE", description = "Document ('-': stdin)")
    String file;

    private InputStream stdin = System.in;

    @Override
    public void stdin(InputStream in) {
      this.stdin = in;
    }

    @Override
    public Integer call() throws IOException {
      if (!Schemas.exists(name)) {
        throw CliError.usage(
            "schema \"" + name + "\": not found (see 'fluxdrm schema list' for the names)");
      }
      Report r;
      try {
        r = JobspecValidator.checkSchema(name, file, JobspecCommand.readSource(file, stdin));
      } catch (SchemaException e) {
        throw new CliError(Main.firstLine(e.getMessage()));
      }
      PrintWriter out = spec.commandLine().getOut();
      JobspecCommand.print(out, r, json);
      out.flush();
      return r.valid() ? 0 : Main.EXIT_ERROR;
    }
  }
}
