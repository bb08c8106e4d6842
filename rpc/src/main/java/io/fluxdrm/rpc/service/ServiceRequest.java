package io.fluxdrm.rpc.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;

/**
 * One request received by a service, and the means to answer it. Answers may come from any thread
 * and are sent on the loop. Answers to a NORESPONSE request, or after the request was canceled or
 * its sender disconnected, are dropped.
 */
public final class ServiceRequest {
  private final Message message;
  private final ServiceDispatcher dispatcher;
  private final boolean streamingMethod;
  private boolean done;

  ServiceRequest(Message message, ServiceDispatcher dispatcher, boolean streamingMethod) {
    this.message = message;
    this.dispatcher = dispatcher;
    this.streamingMethod = streamingMethod;
  }

  /** Returns the request message, with the route stack it arrived with. */
  public Message message() {
    return message;
  }

  /** Returns the topic. */
  public String topic() {
    return message.topic();
  }

  /**
   * Returns the payload as a JSON object.
   *
   * @throws io.fluxdrm.rpc.RpcException EPROTO when it is not one
   */
  public ObjectNode json() {
    return message.json();
  }

  /**
   * Checks that a request payload has no key outside {@code allowed}, so that a misspelt key is an
   * error rather than silently ignored.
   *
   * @param topic the request's topic, which starts the error text
   * @param payload the request payload
   * @param allowed the keys the method accepts
   * @throws RpcException EPROTO {@code <topic>: /<key>: unknown key (expected: one of [<allowed,
   *     sorted>])} at the first key not allowed
   */
  public static void requireOnlyKeys(String topic, ObjectNode payload, Set<String> allowed) {
    for (Iterator<String> it = payload.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        throw new RpcException(
            Errno.EPROTO,
            topic + ": /" + k + ": unknown key (expected: one of " + new TreeSet<>(allowed) + ")");
      }
    }
  }

  /**
   * Refuses a sender without the owner role.
   *
   * @param expected who may send this request, for the message (e.g. "the job manager")
   * @throws RpcException EPERM {@code <topic>: user <uid> is not the instance owner (expected:
   *     <expected>)}
   */
  public void requireOwner(String expected) {
    if (!isOwner()) {
      throw new RpcException(
          Errno.EPERM,
          topic()
              + ": user "
              + Integer.toUnsignedString(credentials().userid())
              + " is not the instance owner (expected: "
              + expected
              + ")");
    }
  }

  /** Returns the sender's identity: the last route (the original sender). */
  public String sender() {
    String s = message.sender();
    return s == null ? "" : s;
  }

  /** Returns the matchtag (0 when the client set none). */
  public int matchtag() {
    return message.matchtag();
  }

  /** Returns the credentials the transport stamped on the request. */
  public Credentials credentials() {
    return new Credentials(message.userid(), message.rolemask());
  }

  /** Returns whether the sender holds the owner role. */
  public boolean isOwner() {
    return credentials().isOwner();
  }

  /** Returns whether the sender may act for something of user {@code uid}: owner or same user. */
  public boolean mayActFor(int uid) {
    return credentials().mayActFor(uid);
  }

  /** Returns whether the client expects responses (NORESPONSE is not set). */
  public boolean expectsResponse() {
    return !message.has(Flags.NORESPONSE);
  }

  /** Returns whether this is a streaming request. */
  public boolean streaming() {
    return streamingMethod;
  }

  /**
   * Sends a successful response with a JSON object payload (null for none). For a streaming method
   * the request stays open; otherwise this is the final answer.
   */
  public void respond(Object payload) {
    byte[] p = payload == null ? null : Json.encode(payload);
    dispatcher.answer(this, 0, p, !streamingMethod);
  }

  /**
   * As {@link #respond}, with the payload already serialized: {@code json} is one JSON object,
   * compact, followed by the NUL a JSON payload ends with, as {@link Json#encode} makes it. For an
   * answer written from its parts on a hot path (issue 32); it is sent as it is.
   */
  public void respondEncoded(byte[] json) {
    dispatcher.answer(this, 0, json, !streamingMethod);
  }

  /** Sends a final error response with a short text (null for none). */
  public void fail(int errnum, String text) {
    if (errnum == 0) {
      throw new IllegalArgumentException("errnum: 0 (expected: an error number)");
    }
    dispatcher.answer(this, errnum, text == null ? null : Json.text(text), true);
  }

  /** Ends a streaming request normally (ENODATA). */
  public void end() {
    dispatcher.answer(this, Errno.ENODATA, null, true);
  }

  /**
   * Finishes this request without answering it, for messages a protocol never answers even when the
   * sender did not set NORESPONSE (RFC 27's {@code sched.free}, {@code sched.cancel}, ...): the
   * service forgets it, so it is neither kept until the sender disconnects nor answered later.
   */
  public void drop() {
    dispatcher.drop(this);
  }

  /** Returns whether the final answer was sent or the request was dropped. */
  public boolean isDone() {
    return done;
  }

  boolean markDone() {
    boolean was = done;
    done = true;
    return !was;
  }
}
