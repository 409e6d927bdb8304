import { failureConfirmation } from '../common/envelopes.js';
import { WireResponseException } from '../common/errors.js';
import { WWW_AUTHENTICATE } from '../common/http-exception.filter.js';

/** HTTP 401 with the ActionConfirmation whose Message is "AccessDenied" (docs/api.md §2.4, §2.5). */
export const accessDenied = () =>
  new WireResponseException(failureConfirmation(401, 'AccessDenied'), 401, { 'WWW-Authenticate': WWW_AUTHENTICATE });
