import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata.js';
import type { AnyClass } from '../columns.js';

type Lookup = (target: AnyClass, schema: string, always: boolean, strictGroups: boolean, groups?: string[]) => ValidationMetadata[];
type Grouping = (metadata: ValidationMetadata[]) => Record<string, ValidationMetadata[]>;

let installed = false;

/**
 * Remembers class-validator's rules per class (docs/architecture.md §1, "Body → DTO"). On every
 * `validate()` its metadata storage finds a class's rules, inherited ones included, by testing every
 * decorated class of the application (`instanceof` on each), then groups them by property: a tenth of
 * a create's CPU went to validation, a quarter of that to this lookup (class-validator issue #2686).
 * The answer changes only when a rule is added, which empties the cache; callers only read it.
 */
export function cacheValidationMetadata(): void {
  if (installed) return;
  installed = true;
  const storage = getMetadataStorage() as unknown as {
    getTargetValidationMetadatas: Lookup;
    groupByPropertyName: Grouping;
    addValidationMetadata(metadata: ValidationMetadata): void;
  };
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let found = new WeakMap<AnyClass, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();

  storage.addValidationMetadata = (metadata) => {
    found = new WeakMap();
    grouped = new WeakMap();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = groups?.length ? JSON.stringify([schema, always, strictGroups, groups]) : `${always ? 1 : 0}${strictGroups ? 1 : 0}${schema}`;
    let ofTarget = found.get(target);
    if (!ofTarget) found.set(target, (ofTarget = new Map()));
    let metadata = ofTarget.get(key);
    if (!metadata) ofTarget.set(key, (metadata = lookup(target, schema, always, strictGroups, groups)));
    return metadata;
  };
  // The executor groups what the lookup gave; the same array always groups the same way.
  storage.groupByPropertyName = (metadata) => {
    let byProperty = grouped.get(metadata);
    if (!byProperty) grouped.set(metadata, (byProperty = group(metadata)));
    return byProperty;
  };
}
