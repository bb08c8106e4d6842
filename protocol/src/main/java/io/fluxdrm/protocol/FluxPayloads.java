package io.fluxdrm.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rset.ResourceSet;

/**
 * The other Flux payloads around a reallocation (RFC 27 {@code sched.free}, RFC 51 {@code
 * sched.realloc_cancel}, RFC 51 "Reallocation" and RFC 27 "Free") and the unsigned 64-bit
 * identifiers they carry (decision D11: job ids and alloc ids never pass through a double).
 */
public final class FluxPayloads {
  private FluxPayloads() {}

  /**
   * {@code sched.free {"id": JOB, "R": R, "final": FINAL}}: after a shrink, once the job has let go
   * of R ({@code final} false); at the job's end, everything it still holds ({@code final} true).
   *
   * @param jobId the job id (unsigned)
   * @param r the resources freed
   * @param fin whether this is the job's last free
   * @return a new payload
   */
  public static ObjectNode free(long jobId, ResourceSet r, boolean fin) {
    return new SchedFree(jobId, r, fin).toJson();
  }

  /**
   * {@code sched.realloc_cancel {"matchtag": N}} (RFC 51 §Realloc Cancel, D003).
   *
   * @param matchtag the matchtag of the pending {@code sched.realloc}
   * @return a new payload
   */
  public static ObjectNode reallocCancel(long matchtag) {
    return new SchedReallocCancel(matchtag).toJson();
  }

  /**
   * An unsigned 64-bit identifier as a JSON integer.
   *
   * @param id the identifier, its 64 bits read as unsigned
   * @return a number node
   */
  public static JsonNode id(long id) {
    return JobId.json(id);
  }

  /**
   * Reads an unsigned 64-bit identifier: a JSON integer from 0 to 18446744073709551615, never a
   * fraction or a float ({@link JobId#read}).
   *
   * @param node the value
   * @param where its location, for the message
   * @return the identifier's 64 bits
   * @throws ProtocolException for anything else
   */
  public static long readId(JsonNode node, String where) {
    try {
      return JobId.read(node, where);
    } catch (RpcException e) {
      throw new ProtocolException(e.getMessage());
    }
  }
}
