import { Navigate, useLocation } from 'react-router';

/** /checkout: an older link to the payment screen; the query (plan, interval) is kept. */
export default function CheckoutRedirect() {
  const { search } = useLocation();
  return <Navigate to={`/payment${search}`} replace />;
}
