/**
 * Where a workspace file's JSON is wrong, as an editor counts it (line and column from 1) with one
 * sentence. JSON.parse's own messages name a position for some mistakes only ("Unexpected end of
 * JSON input" names none, "Unexpected token" quotes the text instead), so the text is scanned again
 * here, once it has failed, by a small strict reader that stops at the first mistake.
 */

export interface JsonErrorPosition {
  line: number;
  column: number;
  /** What is wrong there, in a sentence without the position. */
  sentence: string;
}

class Stop {
  readonly offset: number;
  readonly sentence: string;
  constructor(offset: number, sentence: string) {
    this.offset = offset;
    this.sentence = sentence;
  }
}

/** The first mistake of `text` as JSON; null when it parses. */
export function locateJsonError(text: string): JsonErrorPosition | null {
  try {
    new Scanner(text).document();
    return null;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return { ...lineAndColumn(text, error.offset), sentence: error.sentence };
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ['true', 'false', 'null'];

class Scanner {
  private at = 0;
  private readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  document(): void {
    this.value();
    this.space();
    if (this.at < this.text.length) this.stop(`there is more text after the end of the JSON value (${this.shown()})`);
  }

  private stop(sentence: string): never {
    throw new Stop(this.at, sentence);
  }

  private shown(): string {
    const char = this.text[this.at];
    return char === undefined ? 'the end of the file' : JSON.stringify(char);
  }

  private unexpected(expected: string): never {
    if (this.at >= this.text.length) this.stop(`the file ends where ${expected} was expected: the JSON is incomplete`);
    this.stop(`${expected} was expected, found ${this.shown()}`);
  }

  private space(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at] as string)) this.at++;
  }

  private value(): void {
    this.space();
    const char = this.text[this.at];
    if (char === '{') return this.object();
    if (char === '[') return this.array();
    if (char === '"') return this.string();
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return this.number();
    const literal = LITERALS.find((word) => this.text.startsWith(word, this.at));
    if (literal) {
      this.at += literal.length;
      return;
    }
    this.unexpected('a value (an object, array, string, number, true, false or null)');
  }

  private object(): void {
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return;
    }
    for (;;) {
      this.space();
      if (this.text[this.at] !== '"') this.unexpected('a property name in double quotes');
      this.string();
      this.space();
      if (this.text[this.at] !== ':') this.unexpected('":" after the property name');
      this.at++;
      this.value();
      this.space();
      if (this.text[this.at] === ',') {
        this.at++;
        continue;
      }
      if (this.text[this.at] === '}') {
        this.at++;
        return;
      }
      this.unexpected('"," or "}"');
    }
  }

  private array(): void {
    this.at++;
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return;
    }
    for (;;) {
      this.value();
      this.space();
      if (this.text[this.at] === ',') {
        this.at++;
        continue;
      }
      if (this.text[this.at] === ']') {
        this.at++;
        return;
      }
      this.unexpected('"," or "]"');
    }
  }

  private string(): void {
    this.at++;
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined) this.stop('the file ends inside a string: its closing quote is missing');
      if (char === '"') {
        this.at++;
        return;
      }
      if (char.charCodeAt(0) < 0x20) this.stop('a string holds a line break or another control character: write it as an escape such as \\n');
      if (char === '\\') {
        const escape = this.text[this.at + 1];
        if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6))) this.at += 6;
        else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) this.at += 2;
        else this.stop('a string holds an escape JSON does not know (a backslash is written \\\\)');
        continue;
      }
      this.at++;
    }
  }

  private number(): void {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (!match) this.stop('a number is malformed');
    // A mistake inside a number is shown at the number's start, where a person reads it.
    const next = this.text[this.at + match[0].length];
    if (next !== undefined && /[0-9.eE]/.test(next)) this.stop('a number is malformed (JSON numbers have no leading zeros and need digits after "." and "e")');
    this.at += match[0].length;
  }
}
