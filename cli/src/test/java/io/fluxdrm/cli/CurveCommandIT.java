package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.curve.CurveCert;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transport.ZmqClientKeys;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The "running across hosts" sequence of docs/sched-simple.md on one machine: {@code fluxdrm
 * keygen} makes the certificates, a clients file lists the allowed keys, {@code fluxdrm sched
 * --listen tcp://127.0.0.1:* --curve-cert ... --curve-clients ...} and {@code fluxdrm bridge
 * --connect ... --curve-cert ... --curve-server-key KEY} run as processes, and clients in this JVM
 * connect with their own keys: an owner's and a guest's jobs go through with the credentials the
 * file gives them; a key not in the file, or a client that expects another server key, gets no
 * answer at all.
 */
@Timeout(180)
class CurveCommandIT {
  /** How long a refused client is given to get an answer it must not get. */
  private static final long REFUSED_WAIT_SECONDS = 3;

  private static final int GUEST_UID = 4242;

  /** Runs {@code fluxdrm keygen PATH} in process and returns the public key it printed. */
  private static String keygen(Path cert) {
    CliRun r = CliRun.run("", "keygen", "--name", cert.getFileName().toString(), cert.toString());
    assertThat(r.status()).as("keygen %s: %s", cert, r.err()).isZero();
    return r.out().strip();
  }

  private static ZmqClientKeys keys(String serverKey, Path cert) {
    CurveCert c = CurveCert.readSecret(cert);
    return new ZmqClientKeys(serverKey, c.publicKey(), c.secretKey());
  }

  /**
   * {@code own}: the bridge has its own certificate and is given the hub's key as Z85; {@code
   * shared}: as in a Flux system instance, the bridge uses the hub's own certificate, which is also
   * its {@code --curve-server-key} file, and the clients file lists that key.
   */
  @ParameterizedTest(name = "{0} bridge certificate")
  @ValueSource(strings = {"own", "shared"})
  void sched_curveAcrossHosts_allowedKeysServedOthersGetNowhere(String mode, @TempDir Path dir)
      throws Exception {
    boolean shared = mode.equals("shared");
    Path serverCert = dir.resolve("sched.cert");
    Path bridgeCert = shared ? serverCert : dir.resolve("bridge.cert");
    Path ownerCert = dir.resolve("owner.cert");
    Path guestCert = dir.resolve("guest.cert");
    Path intruderCert = dir.resolve("intruder.cert");
    String serverKey = keygen(serverCert);
    String bridgeKey = shared ? serverKey : keygen(bridgeCert);
    String ownerKey = keygen(ownerCert);
    String guestKey = keygen(guestCert);
    keygen(intruderCert);
    int uid = Daemon.uid();
    Path clients =
        Files.writeString(
            dir.resolve("clients.json"),
            """
            {"clients": [
              {"key": "%s", "userid": %d, "role": "owner", "name": "bridge"},
              {"key": "%s", "userid": %d, "role": "owner", "name": "admin"},
              {"key": "%s", "userid": %d, "role": "user", "name": "guest"}
            ]}
            """
                .formatted(bridgeKey, uid, ownerKey, uid, guestKey, GUEST_UID));

    Path bridgeLog = dir.resolve("bridge.log");
    Process bridge = null;
    try (SchedProcess sched =
            SchedProcess.start(
                dir,
                "sched",
                "--listen",
                "tcp://127.0.0.1:*",
                "--curve-cert",
                serverCert.toString(),
                "--curve-clients",
                clients.toString(),
                "--hosts",
                "node[0-3]",
                "--cores",
                "0-3");
        Reactor reactor = Reactor.start("curve-it")) {
      String endpoint =
          sched.awaitLog(
              "listening on (tcp://127\\.0\\.0\\.1:[0-9]+) \\(CURVE, server key "
                  + Pattern.quote(serverKey)
                  + ", 3 client key\\(s\\)\\)");
      assertThat(sched.stderr()).contains("curve client guest: userid " + GUEST_UID + " user");

      bridge =
          BridgeCommandIT.start(
              bridgeLog,
              "bridge",
              "--connect",
              endpoint,
              "--curve-cert",
              bridgeCert.toString(),
              "--curve-server-key",
              shared ? serverCert.toString() : serverKey,
              "--state-dir",
              dir.resolve("state").toString());

      FluxHandle owner = FluxHandle.connectZmq(reactor, endpoint, keys(serverKey, ownerCert));
      FluxHandle guest = FluxHandle.connectZmq(reactor, endpoint, keys(serverKey, guestCert));

      // the owner's job goes through the bridge, which got in with its own key
      ObjectNode job = BridgeCommandIT.submit(owner, BridgeCommandIT.nodes(1));
      assertThat(job.get("userid").asInt()).isEqualTo(uid);
      assertThat(ResourceSet.fromJson(job.get("R")).nnodes()).isEqualTo(1);
      BridgeCommandIT.awaitAllocated(owner, ResourceSet.fromJson(job.get("R")).summary());
      assertThat(
              BridgeCommandIT.awaitLog(
                  bridgeLog, Pattern.compile("connected to ([^;\\s]+)"), bridge))
          .isEqualTo(endpoint);

      // the guest's job carries the guest's uid from the clients file; ending it is the owner's
      ObjectNode guestJob = BridgeCommandIT.submit(guest, BridgeCommandIT.nodes(1));
      assertThat(guestJob.get("userid").asInt()).isEqualTo(GUEST_UID);
      long guestId = guestJob.get("id").asLong();
      assertThatThrownBy(
              () ->
                  guest
                      .rpc("bridge.finish", Json.object().put("id", guestId))
                      .get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EPERM));
      owner.rpc("bridge.finish", Json.object().put("id", guestId)).get(30, TimeUnit.SECONDS);
      owner
          .rpc("bridge.finish", Json.object().put("id", job.get("id").asLong()))
          .get(30, TimeUnit.SECONDS);
      BridgeCommandIT.awaitAllocated(owner, "");

      // a key the file does not list, and an allowed key that expects another server: no answer
      ZmqClientKeys intruder = keys(serverKey, intruderCert);
      ZmqClientKeys wrongServer = keys(guestKey, ownerCert);
      for (ZmqClientKeys k : new ZmqClientKeys[] {intruder, wrongServer}) {
        FluxHandle h = FluxHandle.connectZmq(reactor, endpoint, k);
        try {
          assertThatThrownBy(
                  () ->
                      h.rpc("sched.resource-status", Json.object())
                          .get(REFUSED_WAIT_SECONDS, TimeUnit.SECONDS))
              .as("client %s, server key %s", k.publicKey(), k.serverPublicKey())
              .isInstanceOf(TimeoutException.class);
        } finally {
          h.close();
        }
      }
      // and the hub still serves the allowed clients
      assertThat(BridgeCommandIT.allocated(owner)).isEmpty();
      assertThat(BridgeCommandIT.allocated(guest)).isEmpty();

      bridge.destroy();
      assertThat(bridge.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(bridge.exitValue()).isEqualTo(143);
      owner.close();
      guest.close();
      assertThat(sched.terminate()).isEqualTo(SchedTcpIT.EXIT_SIGTERM);
    } finally {
      if (bridge != null && bridge.isAlive()) {
        bridge.destroyForcibly();
        bridge.waitFor(60, TimeUnit.SECONDS);
      }
    }
  }
}
