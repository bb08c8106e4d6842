package io.fluxdrm.dvm.client;

import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.dvm.wire.DvmHubService;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.hub.LocalHubListener;
import io.fluxdrm.rpc.reactor.Reactor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a DVM client connects to in tests: a hub listening on a Unix socket in a directory and, with
 * a daemon policy, the elastic reference DVM of node n1 (2 slots) served on it, owned by this
 * process's user.
 */
public final class DvmOnSocket implements AutoCloseable {
  private final Reactor reactor;
  private final Hub hub;
  private final LocalHubListener listener;
  private DvmService dvm;

  private DvmOnSocket(Path dir) {
    reactor = Reactor.start("dvm-on-socket");
    hub = new Hub(reactor);
    listener = LocalHubListener.start(hub, reactor, dir, LocalHubListener.Options.defaults());
  }

  /**
   * Starts the hub in {@code dir}, and the DVM on it unless {@code daemons} is null.
   *
   * @param daemons how the DVM's daemons start, or null for a hub without a DVM
   */
  public static DvmOnSocket start(Path dir, DaemonPolicy daemons) throws Exception {
    DvmOnSocket s = new DvmOnSocket(dir);
    if (daemons != null) {
      DvmConfig config =
          DvmConfig.of(
                  List.of(new DvmConfig.NodeSpec("n1", 2)), "dvm", Integer.toUnsignedLong(uid()))
              .withElastic(true);
      s.dvm = DvmService.builder(config, s.reactor).daemons(daemons).checked().start();
      new DvmHubService(s.dvm, "n1", s.hub.attach(Credentials.owner(uid())), (c, i) -> {})
          .start()
          .get(30, TimeUnit.SECONDS);
    }
    return s;
  }

  /** This process's Unix user id. */
  public static int uid() throws Exception {
    return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
  }

  /** The {@code local://} URI of the socket. */
  public String uri() {
    return listener.uri();
  }

  @Override
  public void close() {
    if (dvm != null) {
      reactor.runAndWait(dvm::close, Duration.ofSeconds(5));
    }
    listener.close();
    reactor.close();
  }
}
