package io.fluxdrm.rpc.bench;

import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Encode (frame) and decode one request with a 200-byte JSON payload. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CodecBenchmark {
  private Message message;
  private LocalFraming.Decoder decoder;

  @Setup
  public void setUp() {
    StringBuilder sb = new StringBuilder();
    while (sb.length() < 200 - 12) {
      sb.append('x');
    }
    byte[] payload = Json.encode(Json.object().put("data", sb.toString()));
    message =
        Message.request("sched.alloc", payload)
            .withMatchtag(42)
            .pushRoute("6f55d618-3495-49dc-a91b-afa001bc7deb");
    decoder = new LocalFraming.Decoder(LocalFraming.DEFAULT_MAX_MESSAGE_SIZE);
  }

  /** One message framed then decoded again. */
  @Benchmark
  public Message encodeDecode() {
    byte[] frame = LocalFraming.frame(message);
    decoder.feed(frame, 0, frame.length);
    return decoder.next();
  }
}
