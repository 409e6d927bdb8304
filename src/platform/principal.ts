/** Who is acting: set on the request by the authentication guard. */
export interface Principal {
  userId: number;
  email: string;
  /** Full unrestricted administrator: passes every role check and sees every business. */
  isAdmin: boolean;
  /** Role names, lower-cased. */
  roles: ReadonlySet<string>;
  /** The businesses a restricted administrator may act on; null when unrestricted. */
  businessIds: readonly number[] | null;
  /** Set when the user is a customer. */
  coworkerId: number | null;
}

/** The five actions a role grants on a record type (`Product-Create`). */
export type RecordAction = 'List' | 'Read' | 'Create' | 'Edit' | 'Delete';
