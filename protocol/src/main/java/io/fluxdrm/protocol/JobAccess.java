package io.fluxdrm.protocol;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.service.ServiceRequest;
import java.util.Set;

/**
 * The one owner/may-act check of the services that act on a job for a caller (the job shell, the
 * PMIx facade, the job manager's RFC 51 methods, the scheduler's {@code sched.realloc}): decision
 * D16, after RFC 3's roles, lets the instance owner act on any job and any other user on that
 * user's own jobs only. Each service words the refusal's tail as its documents do; the rule and the
 * head of the message are this class's.
 */
public final class JobAccess {
  private JobAccess() {}

  /**
   * D16: whether a caller may act on a job of {@code jobUser}.
   *
   * @param owner whether the caller is the instance owner (RFC 3 owner role)
   * @param caller the caller's uid (unsigned 32 bits, as {@link Integer#toUnsignedLong})
   * @param jobUser the uid of the job's user, the same way
   */
  public static boolean mayAct(boolean owner, long caller, long jobUser) {
    return owner || caller == jobUser;
  }

  /** The head of a refusal: {@code <topic>: user <caller> may not act on job <job>}. */
  public static String refusalText(String topic, long caller, String job) {
    return topic + ": user " + Long.toUnsignedString(caller) + " may not act on job " + job;
  }

  /**
   * An EPERM refusal: {@link #refusalText} and {@code " (expected: <expected>)"}.
   *
   * @param expected who may, for the message
   */
  public static RpcException refused(String topic, long caller, String job, String expected) {
    return new RpcException(
        Errno.EPERM, refusalText(topic, caller, job) + " (expected: " + expected + ")");
  }

  /**
   * Refuses {@code req} unless its sender may act on a job of {@code jobUser} (D16).
   *
   * @param job the job as the message names it
   * @throws RpcException EPERM {@code <topic>: user <uid> may not act on job <job> (expected: user
   *     <jobUser> or the instance owner)}
   */
  public static void require(ServiceRequest req, int jobUser, String job) {
    long caller = Integer.toUnsignedLong(req.credentials().userid());
    if (!mayAct(req.isOwner(), caller, Integer.toUnsignedLong(jobUser))) {
      throw refused(
          req.topic(),
          caller,
          job,
          "user " + Integer.toUnsignedString(jobUser) + " or the instance owner");
    }
  }

  /**
   * The payload of a request that acts on a job: {@link #require} first, then the payload, a JSON
   * object with no key outside {@code keys}; nothing is read before the caller is known to be
   * allowed.
   *
   * @throws RpcException EPERM as {@link #require}; EPROTO {@code <topic>: /: <why>} for a payload
   *     that is not a JSON object, {@code <topic>: /<key>: unknown key ...} for an unknown key
   */
  public static ObjectNode payload(ServiceRequest req, int jobUser, String job, Set<String> keys) {
    require(req, jobUser, job);
    ObjectNode p;
    try {
      p = req.json();
    } catch (RpcException e) {
      throw new RpcException(Errno.EPROTO, req.topic() + ": /: " + e.getMessage());
    }
    ServiceRequest.requireOnlyKeys(req.topic(), p, keys);
    return p;
  }
}
