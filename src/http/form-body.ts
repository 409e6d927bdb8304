import { getMetadataStorage } from 'class-validator';
import type { AnyClass } from '../records/columns.js';

/** How a form field's text becomes the value its JSON twin would carry, by the rules its DTO declares. */
type FormKind = 'int' | 'number' | 'bool' | 'date' | 'idList' | 'text';

const kindsByDto = new WeakMap<AnyClass, ReadonlyMap<string, FormKind>>();

/** The form kind of every field a DTO declares, from its class-validator rules (read once per DTO). */
function formKinds(dto: AnyClass): ReadonlyMap<string, FormKind> {
  let kinds = kindsByDto.get(dto);
  if (kinds) return kinds;
  const rules = new Map<string, Set<string>>();
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    const names = rules.get(rule.propertyName) ?? new Set<string>();
    if (rule.name) names.add(rule.name);
    rules.set(rule.propertyName, names);
  }
  const found = new Map<string, FormKind>([['Id', 'int']]);
  for (const [property, names] of rules) {
    found.set(
      property,
      names.has('isArray')
        ? 'idList'
        : names.has('isInt')
          ? 'int'
          : names.has('isNumber')
            ? 'number'
            : names.has('isBoolean')
              ? 'bool'
              : names.has('isDate')
                ? 'date'
                : 'text',
    );
  }
  kinds = found;
  kindsByDto.set(dto, kinds);
  return kinds;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A number's text as a number; anything else stays text, so validation refuses it as JSON would. */
function toNumber(text: string): unknown {
  const trimmed = text.trim();
  return NUMBER.test(trimmed) ? Number(trimmed) : text;
}

function convert(kind: FormKind, value: string | string[]): unknown {
  if (kind === 'idList') {
    const parts = (Array.isArray(value) ? value : [value])
      .flatMap((item) => item.split(','))
      .map((item) => item.trim())
      .filter((item) => item !== '');
    return parts.length ? parts.map(toNumber) : null;
  }
  // A key given twice counts once, as the first (as the token endpoint reads its form).
  const text = Array.isArray(value) ? value[0] : value;
  if (kind === 'text') return text;
  // An empty value of a number, flag, date or enum is no value: null, as a blank form field means.
  if (text.trim() === '') return null;
  if (kind === 'bool') {
    const lower = text.trim().toLowerCase();
    return lower === 'true' ? true : lower === 'false' ? false : text;
  }
  return kind === 'int' || kind === 'number' ? toNumber(text) : text;
}

/**
 * A form-encoded record body as the same body in JSON (docs/api.md §11.3): each field the
 * DTO declares converted by its rules — numbers, booleans `true`/`false` (any case), dates as text (the
 * date-time rule parses them as in JSON), id lists as repeated keys or one comma-separated value; an
 * empty value is null except for text. Fields the DTO does not declare are dropped.
 */
export function formToRecordBody(form: Record<string, string | string[]>, dto: AnyClass): Record<string, unknown> {
  const kinds = formKinds(dto);
  const body: Record<string, unknown> = {};
  for (const [name, kind] of kinds) {
    if (!Object.hasOwn(form, name)) continue;
    body[name] = convert(kind, form[name]);
  }
  return body;
}
