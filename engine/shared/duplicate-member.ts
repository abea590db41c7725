/**
 * The first top-level member name that a JSON object's text holds twice, if
 * any. JSON.parse keeps the last of them without a word, while another reader
 * of the same bytes (the platform's own library, a gateway in front of the
 * service) may keep the first: one signed body, two meanings. So a body that
 * repeats a member is refused, naming it, rather than read either way.
 *
 * Runs on text JSON.parse has already accepted as an object: it only has to
 * find the member names at depth 1, skipping strings and nested values. The
 * edge refuses such a request body; the engine finds such a platform reply
 * unusable (a Validation reply "status":7 then "status":0 signed over 0 was
 * taken as a confirmation).
 */
export function duplicateMember(text: string): string | undefined {
  const seen = new Set<string>();
  let depth = 0;
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = i + 1;
      while (text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c /* \ */ ? 2 : 1;
      if (expectName) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (seen.has(name)) return name;
        seen.add(name);
        expectName = false;
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      expectName = depth === 1;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    } else if (c === 0x2c /* , */ && depth === 1) {
      expectName = true;
    }
  }
  return undefined;
}
