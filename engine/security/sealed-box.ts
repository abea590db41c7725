/**
 * AES-256-GCM for data at rest (merchant secrets, card numbers while an attempt
 * still needs them). Format: "v1.<iv>.<tag>.<ciphertext>", base64url parts, so a
 * future key or algorithm can sit beside it.
 */
import { createCipheriv, createDecipheriv, randomBytes, type KeyObject } from "node:crypto";

type Key = Buffer | KeyObject;

export function seal(key: Key, plaintext: string, aad = ""): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

export function open(key: Key, sealed: string, aad = ""): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("sealed value has an unknown format");
  const tagBytes = Buffer.from(tag, "base64url");
  // A shortened tag would make forgery cheaper: only the full 16 bytes are accepted.
  if (tagBytes.length !== 16) throw new Error("sealed value has a malformed tag");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: 16 });
  decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(tagBytes);
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
