/**
 * The bearer token for a broker at a URL: LOMI_BROKER_TOKEN, which --broker-token sets, so worker
 * processes inherit it and it never appears in run parameters or reports.
 */
export function brokerRequestInit(): RequestInit | undefined {
  const token = process.env.LOMI_BROKER_TOKEN;
  return token ? { headers: { Authorization: `Bearer ${token}` } } : undefined;
}
