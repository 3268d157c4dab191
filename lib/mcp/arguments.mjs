// Checks a tool call's arguments against the tool's input JSON schema (the
// small subset the tool table uses: string, boolean, number, integer, arrays
// of strings, enum, anyOf, minimum/maximum) and reports the first problem
// naming the argument. Lenient where agents commonly slip: null means
// "not given", a numeric string is a number, "true"/"false" are booleans and
// one string stands for a one-element list.

/** An invalid argument: `argument` names it (undefined for the whole object). */
export class ArgumentError extends Error {
  constructor(argument, message) {
    super(message);
    this.code = 'EINVALIDARGUMENT';
    this.argument = argument;
  }
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

/** The value converted to `schema`, or throws a message (without the name). */
function convert(schema, value) {
  if (schema.anyOf) {
    const problems = [];
    for (const option of schema.anyOf) {
      try {
        return convert(option, value);
      } catch (e) {
        problems.push(e.message);
      }
    }
    throw new Error(problems.join(', or '));
  }
  let out = value;
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') throw new Error(`must be a string, got ${describe(value)}`);
      break;
    case 'boolean':
      if (value === 'true' || value === 'false') out = value === 'true';
      else if (typeof value !== 'boolean') throw new Error(`must be true or false, got ${describe(value)}`);
      break;
    case 'number':
    case 'integer':
      if (typeof value === 'string' && NUMERIC.test(value)) out = Number(value);
      if (typeof out !== 'number' || !Number.isFinite(out)) {
        throw new Error(`must be a ${schema.type === 'integer' ? 'whole number' : 'number'}, got ${describe(value)}`);
      }
      if (schema.type === 'integer' && !Number.isInteger(out)) throw new Error(`must be a whole number, got ${out}`);
      if (schema.minimum !== undefined && out < schema.minimum) throw new Error(`must be at least ${schema.minimum}, got ${out}`);
      if (schema.maximum !== undefined && out > schema.maximum) throw new Error(`must be at most ${schema.maximum}, got ${out}`);
      break;
    case 'array': {
      const list = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(list)) throw new Error(`must be a list, got ${describe(value)}`);
      out = list.map((item, i) => {
        try {
          return schema.items ? convert(schema.items, item) : item;
        } catch (e) {
          throw new Error(`item ${i} ${e.message}`);
        }
      });
      break;
    }
    default:
      break;
  }
  if (schema.enum && !schema.enum.includes(out)) {
    throw new Error(`must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}; got ${describe(value)}`);
  }
  return out;
}

/**
 * The arguments of a call, checked and converted; throws an ArgumentError
 * naming the first bad argument.
 * @param {string} tool the tool's name, for messages
 * @param {{ properties?: object, required?: string[] }} schema
 * @param {unknown} args
 * @returns {Record<string, unknown>}
 */
export function checkArguments(tool, schema, args) {
  if (args === undefined || args === null) args = {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    throw new ArgumentError(undefined, `${tool}: the arguments must be an object, got ${describe(args)}`);
  }
  const properties = schema.properties ?? {};
  const known = Object.keys(properties);
  const out = {};
  for (const [name, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, name)) {
      throw new ArgumentError(
        name,
        `${tool}: unknown argument '${name}'; ${known.length ? `it takes ${known.join(', ')}` : 'it takes none'}`,
      );
    }
    if (value === null || value === undefined) continue;
    try {
      out[name] = convert(properties[name], value);
    } catch (e) {
      throw new ArgumentError(name, `${tool}: argument '${name}' ${e.message}`);
    }
  }
  for (const name of schema.required ?? []) {
    if (!Object.hasOwn(out, name)) throw new ArgumentError(name, `${tool}: missing required argument '${name}'`);
  }
  return out;
}
