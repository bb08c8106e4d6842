package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.curve.CurveClient;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.zmtp.Command;
import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.FrameEncoder;
import io.fluxdrm.rpc.zmtp.Greeting;
import io.fluxdrm.rpc.zmtp.Mechanism;
import io.fluxdrm.rpc.zmtp.Metadata;
import io.fluxdrm.rpc.zmtp.NullMechanism;
import io.fluxdrm.rpc.zmtp.Ping;
import io.fluxdrm.rpc.zmtp.SocketType;
import io.fluxdrm.rpc.zmtp.ZmtpException;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** A hand-driven ZMTP peer over a plain blocking socket, for feeding the engine bad input. */
public final class RawZmtpPeer implements AutoCloseable {
  public final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  private Mechanism mechanism; // once a handshake is done: seals and opens frames

  public RawZmtpPeer(Socket s) throws IOException {
    this.socket = s;
    s.setTcpNoDelay(true);
    this.in = new DataInputStream(s.getInputStream());
    this.out = s.getOutputStream();
  }

  /** Connects to a {@code tcp://127.0.0.1:PORT} endpoint. */
  public static RawZmtpPeer connect(String endpoint) throws IOException {
    int port = Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
    return new RawZmtpPeer(new Socket(InetAddress.getLoopbackAddress(), port));
  }

  public void write(byte[] b) throws IOException {
    out.write(b);
    out.flush();
  }

  public byte[] read(int n) throws IOException {
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }

  /** Reads one frame (header and body). */
  public Frame readFrame() throws IOException {
    int flags = in.readUnsignedByte();
    long size = (flags & 0x02) != 0 ? in.readLong() : in.readUnsignedByte();
    return new Frame(read((int) size), (flags & 0x01) != 0, (flags & 0x04) != 0);
  }

  /** Exchanges NULL greetings and READYs, announcing {@code type} and {@code identity}. */
  public void handshake(String type, String identity) throws IOException {
    write(Greeting.encode("NULL", false));
    read(64);
    Map<String, byte[]> md = new LinkedHashMap<>();
    md.put("Socket-Type", type.getBytes(StandardCharsets.US_ASCII));
    md.put("Identity", identity.getBytes(StandardCharsets.US_ASCII));
    write(FrameEncoder.encode(Frame.command(Command.of("READY", Metadata.encode(md)))));
    Frame ready = readFrame();
    if (!ready.command()) {
      throw new IOException("expected READY");
    }
    mechanism = new NullMechanism(SocketType.DEALER, new byte[0]);
  }

  /**
   * Runs a CURVE client handshake with the server of public key {@code serverKey}, as a DEALER with
   * {@code identity}; afterwards the raw socket carries whatever the test writes.
   */
  public void curveHandshake(byte[] serverKey, CurveKeyPair keys, String identity)
      throws IOException, ZmtpException {
    Map<String, byte[]> md = new LinkedHashMap<>();
    md.put("Socket-Type", "DEALER".getBytes(StandardCharsets.US_ASCII));
    md.put("Identity", identity.getBytes(StandardCharsets.US_ASCII));
    CurveClient c = new CurveClient(serverKey, keys, md, new SecureRandom());
    write(Greeting.encode("CURVE", false));
    read(64);
    write(FrameEncoder.encode(Frame.command(c.start().get(0))));
    for (byte[] initiate : c.onHandshakeCommand(readFrame().body())) {
      write(FrameEncoder.encode(Frame.command(initiate)));
    }
    c.onHandshakeCommand(readFrame().body());
    if (!c.done()) {
      throw new IOException("expected READY");
    }
    mechanism = c;
  }

  /**
   * After a handshake: sends a PING and reads (and drops) what arrives until its PONG. Returns true
   * when the PONG came, false when the peer closed the connection first; the positive event that
   * shows the hub still serves this connection after everything it read before the PING.
   *
   * @throws AssertionError when neither comes within {@code limit}
   */
  public boolean pingPong(Duration limit) throws IOException, ZmtpException {
    byte[] context = "still-open".getBytes(StandardCharsets.US_ASCII);
    write(FrameEncoder.encode(mechanism.encode(Frame.command(new Ping(0, context).encode()))));
    long deadline = System.nanoTime() + limit.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("neither a PONG nor a close within " + limit);
      }
      socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
      Frame f;
      try {
        f = mechanism.decode(readFrame());
      } catch (SocketTimeoutException e) {
        continue; // the deadline above decides
      } catch (IOException e) {
        return false; // closed or reset by the peer
      }
      if (f.command() && Command.name(f.body()).equals(Command.PONG)) {
        return true;
      }
    }
  }

  /**
   * Reads (and drops) whatever arrives until the peer closes; returns whether it closed within
   * {@code limit}.
   */
  public boolean closedWithin(Duration limit) throws IOException {
    long deadline = System.nanoTime() + limit.toNanos();
    byte[] sink = new byte[4096];
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
      try {
        if (in.read(sink) < 0) {
          return true;
        }
      } catch (SocketTimeoutException e) {
        return false;
      } catch (IOException e) {
        return true; // reset by the peer
      }
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
