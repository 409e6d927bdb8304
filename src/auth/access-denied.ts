import { failureConfirmation } from '../records/envelopes.js';
import { WireResponseException } from '../records/errors.js';
import { WWW_AUTHENTICATE } from '../http/http-exception.filter.js';

/** HTTP 401 with the ActionConfirmation whose Message is "AccessDenied" (docs/api.md §2.4, §2.5). */
export const accessDenied = () =>
  new WireResponseException(failureConfirmation(401, 'AccessDenied'), 401, { 'WWW-Authenticate': WWW_AUTHENTICATE });
