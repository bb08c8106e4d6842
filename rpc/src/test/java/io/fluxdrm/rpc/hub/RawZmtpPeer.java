package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.curve.CurveClient;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.zmtp.Command;
import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.FrameEncoder;
import io.fluxdrm.rpc.zmtp.Greeting;
import io.fluxdrm.rpc.zmtp.Metadata;
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
