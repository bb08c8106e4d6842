package io.fluxdrm.cli;

import io.fluxdrm.rpc.curve.CurveCert;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fluxdrm keygen}: writes a CURVE certificate as flux-core's {@code flux keygen} does (one
 * secret certificate file, mode 0600, decision D191) and prints its public key.
 */
@Command(
    name = "keygen",
    mixinStandardHelpOptions = true,
    header = "Write a CURVE certificate to PATH as 'flux keygen' does; print its public key.",
    description =
        "The file (ZeroMQ ZPL form, mode 0600) holds both keys: give it to 'fluxdrm "
            + "sched --curve-cert' or 'fluxdrm bridge --curve-cert'; give out only the public "
            + "key (Z85, printed on stdout). Exit status: 0 written, 1 an error (PATH exists "
            + "without --force, cannot write, bad option).")
final class KeygenCommand implements Callable<Integer> {
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = {"-n", "--name"},
      paramLabel = "NAME",
      description = "The certificate's metadata name (default: this host's name)")
  String name;

  @Option(
      names = {"-f", "--force"},
      description = "Replace PATH if it exists")
  boolean force;

  @Parameters(paramLabel = "PATH", description = "The certificate file to write")
  Path path;

  @Override
  public Integer call() {
    String host = hostname();
    if (name != null) {
      String problem = CurveCert.valueProblem(name);
      if (problem != null) {
        throw CliError.usage(
            "--name: \""
                + name
                + "\" "
                + problem
                + " (expected: 1 to "
                + CurveCert.MAX_VALUE
                + " letters, digits, spaces or "
                + CurveCert.VALUE_CHARS.strip()
                + ", which flux-core's certificate reader accepts)");
      }
    }
    String[] publicKey = new String[1];
    // the secret key's text lives in one array, wiped once written (D331)
    CurveCert.withSecretText(
        CurveKeyPair.generate(new SecureRandom()),
        metadata(name == null ? host : name, host, Clock.systemDefaultZone()),
        (pub, text) -> {
          write(path, text, force);
          publicKey[0] = pub;
        });
    PrintWriter out = spec.commandLine().getOut();
    out.println(publicKey[0]);
    out.flush();
    return 0;
  }

  /** The metadata {@code flux keygen} records, with fluxdrm's version in place of flux-core's. */
  static Map<String, String> metadata(String name, String host, Clock clock) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("keygen.hostname", host);
    m.put(
        "keygen.time",
        LocalDateTime.now(clock)
            .truncatedTo(ChronoUnit.SECONDS)
            .format(DateTimeFormatter.ISO_LOCAL_DATE_TIME));
    m.put("keygen.userid", Integer.toString(Daemon.uid()));
    String v = Main.class.getPackage().getImplementationVersion();
    m.put("keygen.fluxdrm-version", v == null ? "development" : v);
    return m;
  }

  /**
   * This host's name as gethostname(2) gives it (the kernel's, with no name lookup that could hang
   * on a broken resolver), else Java's lookup, else {@code localhost}.
   */
  private static String hostname() {
    String h;
    try {
      h = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.US_ASCII).strip();
    } catch (IOException e) {
      try {
        h = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException u) {
        h = "";
      }
    }
    return CurveCert.valueProblem(h) == null ? h : "localhost";
  }

  /**
   * Writes the certificate so that it is never readable by others, not even for a moment: a new
   * file is created with mode 0600; with {@code force} a 0600 temporary file beside it replaces it.
   */
  static void write(Path path, byte[] bytes, boolean force) {
    FileAttribute<Set<PosixFilePermission>> mode = PosixFilePermissions.asFileAttribute(OWNER_ONLY);
    if (!force) {
      try {
        writeWiped(Files.createFile(path, mode), bytes);
      } catch (FileAlreadyExistsException e) {
        throw new CliError(path + ": exists (expected: a new file, or --force to replace it)");
      } catch (UnsupportedOperationException e) {
        throw noMode(path);
      } catch (IOException e) {
        throw new CliError(path + ": cannot write (" + e.getMessage() + ")");
      }
      return;
    }
    if (Files.isDirectory(path)) {
      throw new CliError(path + ": is a directory (expected: a certificate file)");
    }
    Path dir = path.toAbsolutePath().getParent();
    Path tmp = null;
    try {
      tmp = Files.createTempFile(dir, "." + path.getFileName(), ".tmp", mode);
      writeWiped(tmp, bytes);
      try {
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
      }
      tmp = null;
    } catch (UnsupportedOperationException e) {
      throw noMode(path);
    } catch (IOException e) {
      throw new CliError(path + ": cannot write (" + e.getMessage() + ")");
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException e) {
          // the error above is the one to report; the temporary file is hidden and mode 0600
        }
      }
    }
  }

  /**
   * Writes the bytes through a direct buffer of our own, zeroed afterwards: a heap array written to
   * a file channel is copied into the JDK's cached temporary buffer, which nobody wipes (D331).
   */
  private static void writeWiped(Path file, byte[] bytes) throws IOException {
    ByteBuffer buf = ByteBuffer.allocateDirect(bytes.length);
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      buf.put(bytes).flip();
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
    } finally {
      buf.clear();
      while (buf.hasRemaining()) {
        buf.put((byte) 0);
      }
    }
  }

  private static CliError noMode(Path path) {
    return new CliError(
        path + ": its file system has no POSIX modes (expected: one where mode 0600 protects it)");
  }
}
