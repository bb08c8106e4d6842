package io.fluxdrm.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Seeded laws and fuzzing of the codec; each test prints its seed. */
class MessageCodecPropertyTest {
  private static final long SEED = Long.getLong("fluxdrm.seed", 20261129L);

  static Message randomMessage(SplittableRandom rnd) {
    MessageType type = MessageType.values()[rnd.nextInt(4)];
    int flags = rnd.nextInt(256) & ~(Flags.TOPIC | Flags.PAYLOAD | Flags.ROUTE);
    if ((flags & Flags.NORESPONSE) != 0) {
      flags &= ~Flags.STREAMING;
    }
    String topic = rnd.nextBoolean() ? randomText(rnd, rnd.nextInt(40)) : null;
    byte[] payload = null;
    if (rnd.nextBoolean()) {
      int len = rnd.nextInt(4) == 0 ? 250 + rnd.nextInt(400) : rnd.nextInt(60);
      payload = new byte[len];
      for (int i = 0; i < len; i++) {
        payload[i] = (byte) rnd.nextInt(256);
      }
    }
    List<String> routes = new ArrayList<>();
    boolean route = rnd.nextBoolean();
    if (route) {
      int n = rnd.nextInt(4);
      for (int i = 0; i < n; i++) {
        routes.add(randomText(rnd, 1 + rnd.nextInt(300)));
      }
    }
    flags |= (topic != null ? Flags.TOPIC : 0) | (payload != null ? Flags.PAYLOAD : 0);
    flags |= route ? Flags.ROUTE : 0;
    return new Message(
        type,
        flags,
        topic,
        payload,
        rnd.nextInt(),
        rnd.nextInt(),
        rnd.nextInt(),
        rnd.nextInt(),
        routes);
  }

  private static String randomText(SplittableRandom rnd, int len) {
    StringBuilder sb = new StringBuilder();
    String alphabet = "abcdefghijklmnopqrstuvwxyz.-_0123456789éλ";
    for (int i = 0; i < len; i++) {
      sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
    }
    return sb.toString();
  }

  @Test
  void encodeDecode_randomMessages_roundTrip() {
    System.out.println("encodeDecode_randomMessages_roundTrip seed=" + SEED);
    SplittableRandom rnd = new SplittableRandom(SEED);
    for (int i = 0; i < 3000; i++) {
      Message m = latin1Routes(randomMessage(rnd));
      assertThat(MessageCodec.decode(MessageCodec.encode(m))).isEqualTo(m);
      assertThat(MessageCodec.fromParts(MessageCodec.toParts(m))).isEqualTo(m);
      assertThat(MessageCodec.encode(m)).hasSize(MessageCodec.encodedSize(m));
    }
  }

  private static Message latin1Routes(Message m) {
    // routes are byte strings: keep them within ISO-8859-1 so the text round-trips
    List<String> r =
        m.routes().stream()
            .map(s -> new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1))
            .toList();
    return m.has(Flags.ROUTE) ? m.withRoutes(r) : m;
  }

  @Test
  void frameDecoder_randomMessagesRandomSplits_sameSequence() {
    System.out.println("frameDecoder_randomMessagesRandomSplits_sameSequence seed=" + SEED);
    SplittableRandom rnd = new SplittableRandom(SEED + 1);
    List<Message> sent = new ArrayList<>();
    java.io.ByteArrayOutputStream stream = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < 500; i++) {
      Message m = latin1Routes(randomMessage(rnd));
      sent.add(m);
      stream.writeBytes(LocalFraming.frame(m));
    }
    byte[] all = stream.toByteArray();
    LocalFraming.Decoder d = new LocalFraming.Decoder(1 << 20);
    List<Message> got = new ArrayList<>();
    int p = 0;
    while (p < all.length) {
      int n = Math.min(all.length - p, 1 + rnd.nextInt(700));
      d.feed(all, p, n);
      p += n;
      for (Message m = d.next(); m != null; m = d.next()) {
        got.add(m);
      }
    }
    assertThat(got).isEqualTo(sent);
  }

  @Test
  void decode_randomBytes_onlyProtocolErrors() {
    System.out.println("decode_randomBytes_onlyProtocolErrors seed=" + SEED);
    SplittableRandom rnd = new SplittableRandom(SEED + 2);
    int decoded = 0;
    for (int i = 0; i < 20000; i++) {
      byte[] b = new byte[rnd.nextInt(80)];
      for (int j = 0; j < b.length; j++) {
        b[j] = (byte) rnd.nextInt(256);
      }
      if (rnd.nextBoolean() && b.length >= 21) {
        // plant a plausible proto part so decoding gets past the first checks
        b[b.length - 21] = 20;
        b[b.length - 20] = (byte) 0x8e;
        b[b.length - 19] = 1;
        b[b.length - 18] = (byte) (1 << rnd.nextInt(4));
      }
      try {
        MessageCodec.decode(b);
        decoded++;
      } catch (RpcException e) {
        assertThat(e.errnum()).isEqualTo(Errno.EPROTO);
      }
    }
    assertThat(decoded).isPositive();
  }

  @Test
  void frameDecoder_mutatedValidStreams_onlyProtocolErrors() {
    System.out.println("frameDecoder_mutatedValidStreams_onlyProtocolErrors seed=" + SEED);
    SplittableRandom rnd = new SplittableRandom(SEED + 3);
    List<WireVectors.Vector> vectors = WireVectors.liveBroker();
    int errors = 0;
    for (int i = 0; i < 20000; i++) {
      byte[] s = vectors.get(rnd.nextInt(vectors.size())).stream().clone();
      int flips = 1 + rnd.nextInt(4);
      for (int f = 0; f < flips; f++) {
        s[rnd.nextInt(s.length)] = (byte) rnd.nextInt(256);
      }
      LocalFraming.Decoder d = new LocalFraming.Decoder(1 << 16);
      d.feed(s, 0, rnd.nextInt(s.length + 1));
      try {
        while (d.next() != null) {
          // drain
        }
      } catch (RpcException e) {
        assertThat(e.errnum()).isEqualTo(Errno.EPROTO);
        errors++;
      }
      assertThat(d.capacity()).isLessThanOrEqualTo(8192);
    }
    assertThat(errors).isPositive();
  }
}
