package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transport.FramedChannel;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hub's Unix-socket listener, speaking flux-core's local connector: a socket named {@code
 * local} in a 0700 directory; each peer's uid is read with SO_PEERCRED; the server writes one
 * handshake byte (0, or EPERM for a refused uid) and then frames both ways. The owner (the uid
 * running the hub, or the configured one) gets OWNER|LOCAL; other uids are refused or get
 * USER|LOCAL as configured.
 */
public final class LocalHubListener implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalHubListener.class);

  /** What to do with a peer whose uid is not the owner's. */
  public enum GuestPolicy {
    /** Write EPERM as the handshake byte and close, as flux-core does by default. */
    REFUSE,
    /** Accept with the USER and LOCAL roles. */
    USER
  }

  /**
   * Listener settings.
   *
   * @param guests what to do with non-owner uids
   * @param ownerUid the owner's uid; empty means the uid of the hub's own process
   * @param maxMessageSize the largest message accepted (bytes after the frame prefix)
   * @param maxQueuedBytes the output queued for a peer beyond which it is disconnected
   */
  public record Options(
      GuestPolicy guests, OptionalInt ownerUid, int maxMessageSize, long maxQueuedBytes) {
    /** Returns the defaults: refuse guests, owner = the hub process's uid, 64 MiB limits. */
    public static Options defaults() {
      return new Options(
          GuestPolicy.REFUSE,
          OptionalInt.empty(),
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE);
    }

    /** Returns these options with another guest policy. */
    public Options withGuests(GuestPolicy g) {
      return new Options(g, ownerUid, maxMessageSize, maxQueuedBytes);
    }

    /** Returns these options with an explicit owner uid. */
    public Options withOwnerUid(int uid) {
      return new Options(guests, OptionalInt.of(uid), maxMessageSize, maxQueuedBytes);
    }

    /** Returns these options with other size limits. */
    public Options withLimits(int maxMessage, long maxQueued) {
      return new Options(guests, ownerUid, maxMessage, maxQueued);
    }
  }

  private final Hub hub;
  private final Reactor reactor;
  private final AutoCloseable closer = this::closeOnLoop;
  private final Path socket;
  private final boolean createdDirectory;
  private final Options options;
  private final int ownerUid;
  private ServerSocketChannel server;

  private LocalHubListener(
      Hub hub,
      Reactor reactor,
      Path socket,
      boolean createdDirectory,
      Options options,
      int ownerUid) {
    this.hub = hub;
    this.reactor = reactor;
    this.socket = socket;
    this.createdDirectory = createdDirectory;
    this.options = options;
    this.ownerUid = ownerUid;
  }

  /**
   * Creates {@code dir} with mode 0700 (it must not exist, its parent must, or it must be an empty
   * directory of ours with mode 0700) and listens on {@code dir/local}. {@link #close} removes the
   * socket, and the directory too when this listener created it and it is empty.
   *
   * @throws RpcException ENOENT when the parent of a new {@code dir} does not exist, EINVAL when
   *     the directory is unsafe, EEXIST when a server listens on {@code dir/local}, EIO when
   *     listening fails
   */
  public static LocalHubListener start(Hub hub, Reactor reactor, Path dir, Options options) {
    if (hub.loop() != reactor) {
      throw new IllegalArgumentException("the hub must run on this reactor");
    }
    Set<PosixFilePermission> mode700 = PosixFilePermissions.fromString("rwx------");
    int selfUid;
    boolean created = false;
    try {
      selfUid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
        // adopt only a directory this process could have made: ours, 0700, empty but for the
        // socket a previous hub left; else another user could own, watch or replace the socket
        // and, the owner being the directory's uid, become the instance owner (D222)
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
          throw new RpcException(Errno.EINVAL, dir + ": not a directory (expected: a directory)");
        }
        int dirUid = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (dirUid != selfUid) {
          throw new RpcException(
              Errno.EINVAL,
              dir + ": owned by uid " + dirUid + " (expected: this process's uid " + selfUid + ")");
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
        if (!perms.equals(mode700)) {
          throw new RpcException(
              Errno.EINVAL,
              dir + ": mode " + PosixFilePermissions.toString(perms) + " (expected: rwx------)");
        }
        try (Stream<Path> entries = Files.list(dir)) {
          List<Path> other =
              entries
                  .filter(e -> !(e.getFileName().toString().equals("local") && isSocket(e)))
                  .toList();
          if (!other.isEmpty()) {
            throw new RpcException(
                Errno.EINVAL,
                dir
                    + ": not empty ("
                    + other.get(0).getFileName()
                    + ") (expected: an empty directory, or a new one)");
          }
        }
      } else {
        // issue 29, finding 3 (D481): the named directory at most, never its parents, so that a
        // mistyped path fails instead of growing a tree somewhere (at the filesystem root, say)
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
          throw new RpcException(
              Errno.ENOENT,
              dir
                  + ": its parent "
                  + dir.getParent()
                  + " does not exist (expected: an existing directory, in which the hub creates "
                  + dir.getFileName()
                  + ")");
        }
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(mode700));
        Files.setPosixFilePermissions(dir, mode700);
        created = true;
      }
    } catch (IOException e) {
      throw new RpcException(Errno.EIO, dir + ": " + e.getMessage());
    }
    Path socket = dir.resolve("local");
    LocalHubListener l =
        new LocalHubListener(
            hub, reactor, socket, created, options, options.ownerUid().orElse(selfUid));
    CompletableFuture<Void> started = new CompletableFuture<>();
    reactor.execute(
        () -> {
          try {
            l.listen();
            started.complete(null);
          } catch (RuntimeException e) {
            started.completeExceptionally(e);
          }
        });
    try {
      awaitStarted(started, socket.toString(), "reactor did not start the listener");
    } catch (RpcException e) {
      l.removeCreatedDirectory(); // a failed start leaves nothing behind either
      throw e;
    }
    return l;
  }

  /** Returns the socket path. */
  public Path socket() {
    return socket;
  }

  /** Returns the {@code local://} URI of the socket. */
  public String uri() {
    return "local://" + socket;
  }

  private void listen() {
    // issue 29, finding 1: a socket some server still listens on is never taken over (the other
    // server would go on running, unreachable); only a stale one, which refuses connections, is
    // replaced
    if (Files.exists(socket, LinkOption.NOFOLLOW_LINKS) && answers(socket)) {
      throw new RpcException(
          Errno.EEXIST,
          socket
              + ": a server is listening there (expected: no socket, or a stale one; stop that"
              + " server or listen elsewhere)");
    }
    try {
      Files.deleteIfExists(socket);
      server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(socket));
    } catch (IOException e) {
      throw new RpcException(Errno.EIO, socket + ": " + e.getMessage());
    }
    reactor.registerListener(server, socket.toString(), this::accept);
    reactor.own(closer);
  }

  /** Whether something accepts connections on the socket {@code p}. */
  private static boolean answers(Path p) {
    try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(p))) {
      return probe.isConnected();
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean isSocket(Path p) {
    try {
      int mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      return (mode & 0170000) == 0140000;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  private void accept(SocketChannel ch) {
    UnixDomainPrincipal p;
    try {
      p = ch.getOption(ExtendedSocketOptions.SO_PEERCRED);
    } catch (IOException e) {
      LOG.warn("{}: peer credentials: {}", socket, e.getMessage());
      closeQuietly(ch);
      return;
    }
    // the name is mapped back to a uid through the user database (NSS, maybe a process): off the
    // reactor, then admitted on it (D225)
    Uids.uidOfAsync(p.user())
        .whenComplete(
            (uid, err) ->
                reactor.execute(() -> admit(ch, p, err == null ? uid : OptionalInt.empty())));
  }

  private void admit(SocketChannel ch, UnixDomainPrincipal p, OptionalInt uid) {
    Credentials creds;
    int handshake = LocalFraming.HANDSHAKE_ACCEPTED;
    String why = null;
    try {
      if (!ch.isOpen()) {
        return;
      }
      if (uid.isEmpty()) {
        creds = null;
        handshake = Errno.EPERM;
        why =
            "uid of user "
                + p.user().getName()
                + " cannot be resolved or is ambiguous (expected: one user database entry)";
      } else if (uid.getAsInt() == ownerUid) {
        creds = Credentials.owner(ownerUid);
      } else if (options.guests() == GuestPolicy.USER) {
        creds = Credentials.user(uid.getAsInt());
      } else {
        creds = null;
        handshake = Errno.EPERM;
        why = "uid " + uid.getAsInt() + " is not the owner " + ownerUid;
      }
      ch.configureBlocking(false);
      ch.write(ByteBuffer.wrap(new byte[] {(byte) handshake}));
    } catch (IOException e) {
      LOG.warn("{}: handshake: {}", socket, e.getMessage());
      closeQuietly(ch);
      return;
    }
    if (creds == null) {
      LOG.info("{}: connection refused: {}", socket, why);
      closeQuietly(ch);
      return;
    }
    String id = hub.newId();
    FramedChannel fc =
        new FramedChannel(
            reactor, ch, options.maxMessageSize(), options.maxQueuedBytes(), "peer " + id);
    Router router = hub.router();
    Credentials c = creds;
    Peer peer =
        new Peer() {
          @Override
          public String id() {
            return id;
          }

          @Override
          public Credentials credentials() {
            return c;
          }

          @Override
          public void send(Message m) {
            fc.send(m);
          }

          @Override
          public void close(String reason) {
            fc.close();
            router.disconnected(this);
          }
        };
    router.connected(peer);
    fc.start(
        new FramedChannel.Listener() {
          @Override
          public void onMessage(Message m) {
            router.received(peer, m);
          }

          @Override
          public void onClosed(RpcException cause) {
            if (cause.errnum() == Errno.ECONNRESET) {
              LOG.debug("{}", cause.getMessage());
            } else {
              LOG.warn("{}; connection closed", cause.getMessage());
            }
            router.disconnected(peer);
          }
        });
  }

  private static void closeQuietly(SocketChannel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      LOG.debug("close: {}", e.getMessage());
    }
  }

  private void closeOnLoop() {
    try {
      if (server != null) {
        server.close();
        Files.deleteIfExists(socket); // only a socket this listener bound (D474: never another's)
      }
    } catch (IOException e) {
      LOG.debug("{}: close: {}", socket, e.getMessage());
    }
    removeCreatedDirectory();
  }

  /** Removes the directory this listener created, if it is empty (D481). */
  private void removeCreatedDirectory() {
    if (!createdDirectory) {
      return;
    }
    try {
      Files.deleteIfExists(socket.getParent());
    } catch (java.nio.file.DirectoryNotEmptyException e) {
      LOG.info("{}: not removed, it holds more than the hub made", socket.getParent());
    } catch (IOException e) {
      LOG.debug("{}: remove: {}", socket.getParent(), e.getMessage());
    }
  }

  /**
   * Stops listening and removes the socket, and the directory if this listener created it and it is
   * empty; connected peers stay until they leave.
   */
  @Override
  public void close() {
    boolean closed =
        reactor.runAndWait(
            () -> {
              reactor.disown(closer);
              closeOnLoop();
            },
            Duration.ofSeconds(5));
    if (!closed) {
      LOG.debug("{}: close: timed out", socket);
    }
  }

  /**
   * Waits up to 10 s for a listener the reactor is starting (shared by the listeners).
   *
   * @throws RpcException the start's own error; EIO {@code <where>: <cause>} for another failure or
   *     an interrupt; ETIMEDOUT {@code <where>: <timeoutText>}
   */
  static void awaitStarted(CompletableFuture<Void> started, String where, String timeoutText) {
    try {
      started.get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RpcException r
          ? r
          : new RpcException(Errno.EIO, where + ": " + e.getCause().getMessage());
    } catch (TimeoutException e) {
      throw new RpcException(Errno.ETIMEDOUT, where + ": " + timeoutText);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RpcException(Errno.EIO, where + ": interrupted");
    }
  }
}
