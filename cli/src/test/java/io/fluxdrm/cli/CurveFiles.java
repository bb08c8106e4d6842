package io.fluxdrm.cli;

import io.fluxdrm.rpc.curve.CurveCert;
import io.fluxdrm.rpc.curve.CurveCertTest;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.curve.Z85;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * Certificate and clients files for the command tests, from fixed keys: {@code server.cert} and
 * {@code client.cert} (mode 0600), {@code open.cert} (a secret certificate of mode 0644), {@code
 * server.pub} (the server's public certificate), {@code bad.cert} (a 3-character public key on line
 * 2), {@code clients.json} (the client as owner 1000) and {@code bad-clients.json} (a role "admin"
 * in its second entry).
 */
final class CurveFiles {
  static final CurveCert SERVER = cert(CurveCertTest.PAIR, "server");
  static final CurveCert CLIENT = cert(CurveCertTest.OTHER, "client");
  static final String SERVER_KEY = SERVER.publicKey();

  private CurveFiles() {}

  private static CurveCert cert(CurveKeyPair k, String name) {
    return new CurveCert(
        Z85.encode(k.publicKey()), Z85.encode(k.secretKey()), Map.of("name", name));
  }

  static void write(Path dir) throws IOException {
    write(dir.resolve("server.cert"), SERVER.secretText(), "rw-------");
    write(dir.resolve("client.cert"), CLIENT.secretText(), "rw-------");
    write(dir.resolve("open.cert"), SERVER.secretText(), "rw-r--r--");
    write(
        dir.resolve("server.pub"),
        "metadata\n    name = \"server\"\ncurve\n    public-key = \"" + SERVER_KEY + "\"\n",
        "rw-r--r--");
    write(dir.resolve("bad.cert"), "curve\n    public-key = \"abc\"\n", "rw-------");
    String client = "{\"key\": \"" + CLIENT.publicKey() + "\", \"userid\": 1000";
    write(
        dir.resolve("clients.json"),
        "{\"clients\": [" + client + ", \"role\": \"owner\"}]}\n",
        "rw-r--r--");
    write(
        dir.resolve("bad-clients.json"),
        "{\"clients\": [{\"key\": \""
            + SERVER_KEY
            + "\", \"userid\": 0, \"role\": \"user\"}, "
            + client
            + ", \"role\": \"admin\"}]}\n",
        "rw-r--r--");
  }

  private static void write(Path f, String text, String perms) throws IOException {
    Files.writeString(f, text);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(perms));
  }
}
