// The documented UDF contract, run inside the engine before the UDF's own
// code: it builds the message and metadata a UDF receives, calls the
// function, checks what it returned and hands the outcome back as JSON.
// It keeps its own copies of the built-ins it uses, taken before the UDF's
// code runs, so that a UDF that replaces JSON.stringify or Object.keys
// changes what it computes, not how its result is read.
(function () {
  "use strict";
  const G = globalThis;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const freeze = Object.freeze;
  const keysOf = Object.keys;
  const create = Object.create;
  const isArray = Array.isArray;
  const defineProperty = Object.defineProperty;
  const classOf = Function.prototype.call.bind(Object.prototype.toString);
  const toText = String;
  const MAX_LINES = $LINES;
  const MAX_BYTES = $BYTES;

  let logs = [];
  let dropped = 0;

  // Local time is UTC. V8 names the zone after the offset, as every
  // browser does ("GMT+0000 (Coordinated Universal Time)"); QuickJS-ng
  // writes the offset alone. Only the name is added.
  const apply = Reflect.apply;
  for (const name of ["toString", "toTimeString"]) {
    const own = Date.prototype[name];
    const named = {
      [name]() {
        const s = apply(own, this, []);
        return s === "Invalid Date" ? s : s + " (Coordinated Universal Time)";
      },
    };
    defineProperty(Date.prototype, name, { value: named[name], writable: true, configurable: true, enumerable: false });
  }
  // Date called as a function writes the date as toString does, so with
  // the zone's name too (the differential's now-is-publish-time); new,
  // statics and instanceof go to the engine's own Date.
  const OwnDate = Date;
  const dateText = Date.prototype.toString;
  const DateProxy = new Proxy(OwnDate, {
    apply() {
      return apply(dateText, new OwnDate(), []);
    },
  });
  defineProperty(G, "Date", { value: DateProxy, writable: true, configurable: true, enumerable: false });
  defineProperty(OwnDate.prototype, "constructor", { value: DateProxy, writable: true, configurable: true, enumerable: false });

  // The array methods that walk every index from 0 to length: on a
  // sparse array or an array-like, QuickJS-ng's loops do not poll the
  // interrupt handler, so a length of 2^32 - 1 would hold the engine for
  // minutes where no bound of its own can reach it (in the browser and in
  // workerd the host cannot stop a call from outside). Past MAX_WALK
  // indexes, more than the memory limit could hold as elements, such a
  // call throws a RangeError instead (the hostile corpus's sparse-sort).
  const MAX_WALK = $WALK;
  const AP = Array.prototype;
  for (const name of ["sort", "forEach", "map", "filter", "reduce", "reduceRight", "every", "some", "indexOf",
    "lastIndexOf", "includes", "find", "findIndex", "findLast", "findLastIndex", "fill", "join", "toString",
    "toLocaleString", "reverse", "copyWithin", "flat", "flatMap", "slice", "splice", "concat", "toSorted",
    "toReversed", "toSpliced", "with"]) {
    const own = AP[name];
    if (typeof own !== "function") continue;
    const walk = {
      [name](...args) {
        if (this !== null && this !== undefined && this.length > MAX_WALK) {
          throw new RangeError("Array.prototype." + name + " on a length of " + this.length + ": subplay bounds a walk over an array at " + MAX_WALK + " indexes");
        }
        return apply(own, this, args);
      },
    }[name];
    defineProperty(walk, "length", { value: own.length, configurable: true });
    defineProperty(AP, name, { value: walk, writable: true, configurable: true, enumerable: false });
  }

  // show writes one console argument as the browsers' consoles do for
  // text: strings as they are, objects as JSON where they can be.
  function show(v) {
    try {
      if (typeof v === "string") return v;
      if (typeof v === "object" && v !== null) {
        if (v instanceof Error) return toText(v.name) + ": " + toText(v.message);
        const s = stringify(v);
        if (typeof s === "string") return s;
      }
      return toText(v);
    } catch (e) {
      return "[" + classOf(v).slice(8, -1) + "]";
    }
  }

  const console = {};
  for (const level of ["log", "info", "warn", "error", "debug", "trace"]) {
    console[level] = function () {
      if (logs.length >= MAX_LINES) {
        dropped++;
        return;
      }
      let text = "";
      for (let i = 0; i < arguments.length; i++) {
        if (i > 0) text += " ";
        text += show(arguments[i]);
        if (text.length > MAX_BYTES) break;
      }
      if (text.length > MAX_BYTES) text = text.slice(0, MAX_BYTES) + "…";
      logs.push({ level: level === "trace" ? "debug" : level, text: text });
    };
  }
  G.console = console;

  // describe names a value's kind for a finding.
  function describe(v) {
    if (v === undefined) return "undefined";
    if (v === null) return "null";
    if (isArray(v)) return "an array";
    switch (typeof v) {
      case "function":
        return "a function";
      case "number":
        return "a number (" + toText(v) + ")";
      case "boolean":
        return "a boolean (" + toText(v) + ")";
      case "string":
        return "a string";
      case "bigint":
        return "a BigInt (" + toText(v) + ")";
      case "symbol":
        return "a symbol";
    }
    if (classOf(v) === "[object String]") return "a String object";
    return "an object";
  }

  const want = 'return the message, {data: "...", attributes: {...}}, or null to drop it';
  function shape(message, hint) {
    return { shape: { message: message, hint: hint } };
  }

  // read checks what the function returned, as the service reads it.
  function read(res) {
    if (res === undefined) return shape("the function returned undefined", want);
    if (typeof res !== "object" || isArray(res)) return shape("the function returned " + describe(res) + ", not an object", want);
    for (const k of keysOf(res)) {
      if (k !== "data" && k !== "attributes") {
        return shape("the returned object has a key " + stringify(k) + "; only data and attributes are allowed",
          "delete it, or move it into attributes (as a string) or into data");
      }
    }
    const data = res.data;
    if (data === undefined) return shape("the returned object has no data", 'data is required: set it to a string ("" for an empty payload)');
    if (typeof data !== "string") return shape("data is " + describe(data) + ", not a string", "convert it, e.g. with JSON.stringify(...) or String(...)");
    const attrs = res.attributes;
    if (attrs === undefined) return { data: data };
    if (typeof attrs !== "object" || attrs === null || isArray(attrs)) {
      return shape("attributes is " + describe(attrs) + ", not an object of strings", 'set attributes to an object such as {key: "value"}, or {} to remove them all');
    }
    // No prototype: a key named __proto__ is a key here, as JSON.parse
    // made it (TestProtoAttribute).
    const out = create(null);
    for (const k of keysOf(attrs)) {
      const v = attrs[k];
      if (typeof v !== "string") {
        return shape("attribute " + stringify(k) + " is " + describe(v) + ", not a string", "attribute values are strings: convert it, e.g. with String(...)");
      }
      out[k] = v;
    }
    return { data: data, attributes: out };
  }

  // thrown describes an exception: an Error's name, message and stack, or
  // any other value as text.
  function thrown(e) {
    try {
      if (e instanceof Error || (typeof e === "object" && e !== null && "message" in e && "stack" in e)) {
        return { name: toText(e.name), message: toText(e.message), stack: typeof e.stack === "string" ? e.stack : "" };
      }
      return { value: show(e) };
    } catch (x) {
      return { value: "a value that cannot be shown" };
    }
  }

  let fn = null;
  function finish(out) {
    out.logs = logs;
    out.dropped = dropped;
    logs = [];
    dropped = 0;
    return stringify(out);
  }
  defineProperty(G, "__subplay", {
    value: freeze({
      bind: function (f) {
        fn = f;
        return "ok";
      },
      // start ends the top-level code: what it logged.
      start: function () {
        return finish({});
      },
      run: function (text) {
        const input = parse(text);
        logs = [];
        dropped = 0;
        const message = { data: input.data, attributes: input.attributes };
        const metadata = freeze(input.metadata);
        let res;
        try {
          res = fn(message, metadata);
        } catch (e) {
          return finish({ threw: thrown(e) });
        }
        if (res === null) return finish({ drop: true });
        try {
          return finish(read(res));
        } catch (e) {
          return finish({ threw: thrown(e), reading: true });
        }
      },
    }),
  });
})();
